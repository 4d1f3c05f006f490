import { z } from 'zod';
import { safeText } from './safe-text';

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

/**
 * Upper bounds of every numeric run option (and tenant cap). Far beyond any real run, and small enough that
 * every computation on them (a deadline `now + wallTimeMs`, a gate expiry) stays a valid date and a safe integer.
 */
export const RUN_OPTION_LIMITS = {
  /** 100 million tokens. */
  tokens: 100_000_000,
  /** 10,000 US dollars. */
  costUsd: 10_000,
  /** 7 days. */
  wallTimeMs: 7 * 24 * 3_600_000,
  /** 30 days. */
  gateTimeoutMs: 30 * 24 * 3_600_000,
  perspectives: 8,
  maxIterations: 20,
  maxRepairRounds: 5,
  interviewTurns: 10,
} as const;

/**
 * How a run researches (issue 14): `survey`, the question-graph loop; `interviews`, each analyst of the plan interviews
 * an expert that answers from the run's sources, in parallel; `hybrid`, the survey loop first, then interviews on the
 * questions it left open.
 */
export const RunMode = z.enum(['survey', 'interviews', 'hybrid']);
export type RunMode = z.infer<typeof RunMode>;

export const Budgets = z.strictObject({
  tokens: z.int().positive().max(RUN_OPTION_LIMITS.tokens).optional(),
  costUsd: z.number().positive().max(RUN_OPTION_LIMITS.costUsd).optional(),
  wallTimeMs: z.int().positive().max(RUN_OPTION_LIMITS.wallTimeMs).optional(),
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
  searchProviders: z.array(safeText().min(1).max(40)).min(1).max(8).default(['corpus']),
  collection: safeText().min(1).max(120).optional(),
  perspectives: z.int().min(1).max(RUN_OPTION_LIMITS.perspectives).default(3),
  mode: RunMode.default('survey'),
  /** Questions each analyst asks at most in its interview (interviews and hybrid modes). */
  interviewTurns: z.int().min(1).max(RUN_OPTION_LIMITS.interviewTurns).default(3),
  maxIterations: z.int().min(1).max(RUN_OPTION_LIMITS.maxIterations).default(3),
  /** Research stops when an iteration adds less than this fraction of new information. */
  minInformationGain: z.number().min(0).max(1).default(0.1),
  maxRepairRounds: z.int().min(0).max(RUN_OPTION_LIMITS.maxRepairRounds).default(2),
  gates: GatePolicy.default({ plan: 'auto', outline: 'auto', publish: 'auto' }),
  /** An open gate nobody decides within this time cancels the run (0 = never; at most 30 days). */
  gateTimeoutMs: z.int().min(0).max(RUN_OPTION_LIMITS.gateTimeoutMs).default(0),
  budgets: Budgets.default({}),
  /**
   * A replay of an earlier run of the tenant (decision 0030): every external answer comes from that run's recording;
   * with `from`, only the steps before the first step of that node do, and it and every later step call live.
   */
  replay: z
    .strictObject({
      of: z.uuid(),
      from: z
        .string()
        .regex(/^[a-z_]{1,40}$/)
        .optional(),
    })
    .optional(),
  /**
   * A follow-up of an earlier run of the tenant (decision 0052): its corpus is the collection of that run's sources.
   * Set by `POST /v1/runs/{id}/follow-ups` only.
   */
  followUp: z.strictObject({ of: z.uuid() }).optional(),
  /** Ask the web search providers again instead of reusing the tenant's cached answers (freshness-critical questions). */
  freshSearch: z.boolean().optional(),
});
export type RunOptions = z.infer<typeof RunOptions>;
export type RunOptionsInput = z.input<typeof RunOptions>;
