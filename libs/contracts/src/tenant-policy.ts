import { z } from 'zod';
import { GateName } from './nodes';
import { Engine, RUN_OPTION_LIMITS } from './run-options';
import { safeText } from './safe-text';

/** Upper bounds a tenant's runs may not exceed; a request beyond one is refused (HTTP 422) naming it. */
export const TenantCaps = z.strictObject({
  tokens: z.int().positive().max(RUN_OPTION_LIMITS.tokens).optional(),
  costUsd: z.number().positive().max(RUN_OPTION_LIMITS.costUsd).optional(),
  wallTimeMs: z.int().positive().max(RUN_OPTION_LIMITS.wallTimeMs).optional(),
  maxIterations: z.int().min(1).max(RUN_OPTION_LIMITS.maxIterations).optional(),
  /** Analysts per run (the panel, and so the interviews). */
  perspectives: z.int().min(1).max(RUN_OPTION_LIMITS.perspectives).optional(),
  interviewTurns: z.int().min(1).max(RUN_OPTION_LIMITS.interviewTurns).optional(),
});
export type TenantCaps = z.infer<typeof TenantCaps>;

/**
 * How much a tenant may have going at once or spend (issue 30); each unset one is the operator's default (gateway
 * settings). Beyond one, the request is refused with a 429 naming it.
 */
export const TenantLimits = z.strictObject({
  /** Runs not finished yet (queued, running, or waiting at a gate). */
  runsInProgress: z.int().min(1).max(100_000).optional(),
  /** Model spend in USD per UTC day and per UTC month (summed from llm_calls); new runs are refused once it is reached. */
  spendPerDayUsd: z.number().positive().max(1_000_000).optional(),
  spendPerMonthUsd: z.number().positive().max(10_000_000).optional(),
  /** Event streams (`GET /v1/runs/{id}/events`) one key may hold open at once. */
  eventStreamsPerKey: z.int().min(1).max(10_000).optional(),
});
export type TenantLimits = z.infer<typeof TenantLimits>;

/**
 * A tenant's policy (`tenants.policy`). Loose: other parts of the system keep their own keys here
 * (`sources` is read by the searcher's source policy), and a key one version does not know survives a write.
 */
export const TenantPolicy = z.looseObject({
  /** Gates every run of the tenant stops at, whatever the request says. */
  requiredGates: z.array(GateName).default([]),
  /** Engines runs may use (absent: all). */
  engines: z.array(Engine).min(1).optional(),
  /** Search providers runs may use (absent: all); the searcher enforces it again per step. */
  searchProviders: z.array(safeText().min(1).max(40)).min(1).optional(),
  caps: TenantCaps.default({}),
  /** Requests per second through the gateway (GCRA in Redis, shared by every gateway replica). */
  /**
   * Recordings of external answers (decision 0030): kept `retentionDays` (default 30) after the call; web search
   * answers reused by later runs for `searchCacheTtlHours` (default 24, 0 = never).
   */
  recordings: z
    .strictObject({
      retentionDays: z.int().min(1).max(3650).default(30),
      searchCacheTtlHours: z
        .number()
        .min(0)
        .max(24 * 30)
        .default(24),
    })
    .optional(),
  limits: TenantLimits.default({}),
  rateLimit: z.strictObject({ perSecond: z.number().positive().max(100_000), burst: z.int().min(1).max(100_000) }).optional(),
});
export type TenantPolicy = z.infer<typeof TenantPolicy>;
export type TenantPolicyInput = z.input<typeof TenantPolicy>;
