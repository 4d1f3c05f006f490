import { z } from 'zod';
import { CliOwnEnv, CliRemoteEnv } from './cli-env';
import { GatewayOwnEnv } from './gateway-env';
import { MODEL_ROLE_VARIABLES, ModelEnv } from './model-env';
import { ConductorOwnEnv, WorkerEnv } from './schemas';
import { FetchEnv, WebSearchEnv } from './sources-env';
import { TelemetryEnv } from './telemetry-env';

/** One group of variables: who reads them, and their declarations. */
export interface ConfigGroup {
  id: string;
  /** Who reads them, as the docs' table says it. */
  title: string;
  schema: z.ZodObject;
  /** Variables whose names carry a part (`<ROLE>`): no schema field of their own. */
  patterns?: readonly { name: string; description: string }[];
}

/**
 * Every environment variable Dossier reads, by group (libs/testing's TEST_* variables aside: they steer the test
 * harness). A variable is listed by the first group that declares it; a later group that declares it again with
 * another default (the CLI's laptop defaults) adds that default to its row.
 */
export const CONFIG_GROUPS: readonly ConfigGroup[] = [
  { id: 'service', title: 'every service (workers, conductor, gateway) and the CLI', schema: WorkerEnv },
  { id: 'conductor', title: 'the conductor', schema: ConductorOwnEnv },
  { id: 'gateway', title: 'the gateway', schema: GatewayOwnEnv },
  { id: 'cli', title: 'the CLI', schema: CliOwnEnv.extend(CliRemoteEnv.shape) },
  { id: 'model', title: 'the openai engine (any worker, the CLI)', schema: ModelEnv, patterns: MODEL_ROLE_VARIABLES },
  { id: 'search', title: 'web search (searcher)', schema: WebSearchEnv },
  { id: 'fetch', title: 'the fetcher (searcher, extractor)', schema: FetchEnv },
  { id: 'telemetry', title: 'logs and traces (every process)', schema: TelemetryEnv },
];

export interface VariableRow {
  name: string;
  group: string;
  /** The value when unset, as text; '' when unset means "not set" (see the description). */
  default: string;
  description: string;
}

/** The field's value when the variable is unset, as the docs show it. */
export function defaultOf(field: z.ZodType): string {
  const parsed = field.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return '';
  return typeof parsed.data === 'string' ? parsed.data : JSON.stringify(parsed.data);
}

/** One row per variable, in group order (the catalog of docs/operations.md). */
export function variableRows(groups: readonly ConfigGroup[] = CONFIG_GROUPS): VariableRow[] {
  const rows = new Map<string, VariableRow>();
  for (const group of groups) {
    for (const [name, field] of Object.entries(group.schema.shape) as [string, z.ZodType][]) {
      const row = { name, group: group.id, default: defaultOf(field), description: field.description ?? '' };
      const earlier = rows.get(name);
      if (!earlier) rows.set(name, row);
      else if (earlier.default !== row.default)
        earlier.default = earlier.default === '' ? `${group.id}: ${row.default}` : `${earlier.default} (${group.id}: ${row.default})`;
    }
    for (const p of group.patterns ?? []) rows.set(p.name, { name: p.name, group: group.id, default: '', description: p.description });
  }
  return [...rows.values()];
}

/** Fields declared without a `.describe()` (the catalog's test wants none). */
export function undescribedVariables(groups: readonly ConfigGroup[] = CONFIG_GROUPS): string[] {
  return groups.flatMap((g) =>
    (Object.entries(g.schema.shape) as [string, z.ZodType][]).filter(([, f]) => !f.description?.trim()).map(([n]) => `${g.id}.${n}`),
  );
}
