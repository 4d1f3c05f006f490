import type { MeView } from '../../api/types';

/**
 * The run settings the form offers, as data: a new option the API accepts (the coming `mode` of the
 * interviews work, for one) is one more entry here, and the form, its validation and the request follow.
 */
export interface SelectSetting {
  kind: 'select';
  key: string;
  label: string;
  help?: string;
  options: (me: MeView) => { value: string; label: string }[];
  initial: (me: MeView) => string;
}

export interface NumberSetting {
  kind: 'number';
  key: string;
  label: string;
  help?: string;
  min: number;
  /** The largest value: the contract's bound, or the tenant's cap when lower. */
  max: (me: MeView) => number;
  /** The cap to show, when the tenant has one. */
  cap: (me: MeView) => number | undefined;
  initial: (me: MeView) => number | '';
  /** Where the value goes in the request's options (budgets are nested), and how the field's unit converts. */
  path: ['budgets', string] | [string];
  toRequest?: (value: number) => number;
  step?: number;
  optional?: boolean;
  unit?: string;
}

export type RunSetting = SelectSetting | NumberSetting;

const ENGINE_LABEL: Record<string, string> = { offline: 'Offline (no model, no network)', openai: 'OpenAI-compatible model' };

export const RUN_SETTINGS: RunSetting[] = [
  {
    kind: 'select',
    key: 'engine',
    label: 'Engine',
    options: (me) => me.policy.engines.map((e) => ({ value: e, label: ENGINE_LABEL[e] ?? e })),
    initial: (me) => (me.policy.engines.includes(me.defaults.engine) ? me.defaults.engine : me.policy.engines[0]!),
  },
  {
    kind: 'number',
    key: 'perspectives',
    label: 'Analysts',
    help: 'Perspectives on the panel that plans the research.',
    min: 1,
    max: (me) => Math.min(8, me.policy.caps.perspectives ?? 8),
    cap: (me) => me.policy.caps.perspectives,
    initial: (me) => me.defaults.perspectives,
    path: ['perspectives'],
  },
  {
    kind: 'number',
    key: 'maxIterations',
    label: 'Research iterations',
    min: 1,
    max: (me) => Math.min(20, me.policy.caps.maxIterations ?? 20),
    cap: (me) => me.policy.caps.maxIterations,
    initial: (me) => me.defaults.maxIterations,
    path: ['maxIterations'],
  },
  {
    kind: 'number',
    key: 'tokens',
    label: 'Token budget',
    min: 1,
    max: (me) => me.policy.caps.tokens ?? 100_000_000,
    cap: (me) => me.policy.caps.tokens,
    initial: () => '',
    path: ['budgets', 'tokens'],
    optional: true,
    unit: 'tokens',
  },
  {
    kind: 'number',
    key: 'costUsd',
    label: 'Cost budget',
    min: 0.01,
    step: 0.01,
    max: (me) => me.policy.caps.costUsd ?? 100_000,
    cap: (me) => me.policy.caps.costUsd,
    initial: () => '',
    path: ['budgets', 'costUsd'],
    optional: true,
    unit: 'USD',
  },
  {
    kind: 'number',
    key: 'wallTimeMinutes',
    label: 'Time budget',
    min: 1,
    max: (me) => (me.policy.caps.wallTimeMs ? Math.floor(me.policy.caps.wallTimeMs / 60_000) : 10_000),
    cap: (me) => (me.policy.caps.wallTimeMs ? Math.floor(me.policy.caps.wallTimeMs / 60_000) : undefined),
    initial: () => '',
    path: ['budgets', 'wallTimeMs'],
    toRequest: (minutes) => Math.round(minutes * 60_000),
    optional: true,
    unit: 'minutes',
  },
];
