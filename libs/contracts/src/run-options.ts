import { z } from 'zod';

export const GateMode = z.enum(['required', 'auto']);
export type GateMode = z.infer<typeof GateMode>;

export const GatePolicy = z.strictObject({
  plan: GateMode.default('auto'),
  outline: GateMode.default('auto'),
  publish: GateMode.default('auto'),
});
export type GatePolicy = z.infer<typeof GatePolicy>;

export const BudgetKind = z.enum(['tokens', 'cost', 'wall_time', 'iterations']);
export type BudgetKind = z.infer<typeof BudgetKind>;

export const Budgets = z.strictObject({
  tokens: z.int().positive().optional(),
  costUsd: z.number().positive().optional(),
  wallTimeMs: z.int().positive().optional(),
});
export type Budgets = z.infer<typeof Budgets>;

export const Engine = z.enum(['offline', 'openai']);
export type Engine = z.infer<typeof Engine>;

/**
 * Everything a run is configured with. Stored on the run at creation; the router reads the
 * loop and repair bounds from here, never from process config, so a run behaves the same on any worker.
 */
export const RunOptions = z.strictObject({
  engine: Engine.default('offline'),
  searchProviders: z.array(z.string().min(1).max(40)).min(1).max(8).default(['corpus']),
  collection: z.string().min(1).max(120).optional(),
  perspectives: z.int().min(1).max(8).default(3),
  maxIterations: z.int().min(1).max(20).default(3),
  /** Research stops when an iteration adds less than this fraction of new information. */
  minInformationGain: z.number().min(0).max(1).default(0.1),
  maxRepairRounds: z.int().min(0).max(5).default(2),
  gates: GatePolicy.default({ plan: 'auto', outline: 'auto', publish: 'auto' }),
  /** An open gate nobody decides within this time cancels the run (0 = never). */
  gateTimeoutMs: z.int().min(0).default(0),
  budgets: Budgets.default({}),
});
export type RunOptions = z.infer<typeof RunOptions>;
export type RunOptionsInput = z.input<typeof RunOptions>;
