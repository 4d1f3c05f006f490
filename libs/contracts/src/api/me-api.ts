import { z } from 'zod';
import { GateName } from '../nodes';
import { Engine } from '../run-options';
import { TenantCaps } from '../tenant-policy';

/** The search providers this version ships (a tenant's policy may allow fewer; `corpus` is the tenant's private collections). */
export const SEARCH_PROVIDER_NAMES = ['corpus', 'searxng', 'tavily', 'brave'] as const;

/**
 * `GET /v1/me`: who the key acts for and what the tenant's policy lets it do, so a client can offer only
 * what the API would accept (allowed engines and providers, caps, forced gates) and hide what a viewer may not do.
 */
export const MeView = z.strictObject({
  principal: z.strictObject({ id: z.uuid(), name: z.string(), role: z.string() }),
  /** True when the role may change things (start, cancel, decide, intervene, upload); a viewer may only read. */
  canWrite: z.boolean(),
  key: z.strictObject({ prefix: z.string() }),
  tenant: z.strictObject({ id: z.uuid(), name: z.string() }),
  policy: z.strictObject({
    /** Gates every run stops at, whatever the request says. */
    requiredGates: z.array(GateName),
    /** Engines runs may use (the policy's list, or every engine when it names none). */
    engines: z.array(Engine).min(1),
    /** Search providers runs may use (the policy's list, or every provider this version ships). */
    searchProviders: z.array(z.string()).min(1),
    caps: TenantCaps,
    rateLimit: z.strictObject({ perSecond: z.number(), burst: z.int() }),
  }),
  /**
   * The tenant's limits (its policy's, or the operator's defaults) and where it stands against each now: runs not
   * finished, model spend this UTC day and month, and this key's open event streams. Beyond one, requests get a 429
   * whose `details.limit` names it.
   */
  limits: z.strictObject({
    runsInProgress: z.strictObject({ max: z.int(), current: z.int() }),
    spendPerDayUsd: z.strictObject({ max: z.number(), current: z.number() }),
    spendPerMonthUsd: z.strictObject({ max: z.number(), current: z.number() }),
    eventStreamsPerKey: z.strictObject({ max: z.int(), current: z.int() }),
  }),
  /** What an option the request leaves out becomes (before the caps apply). */
  defaults: z.strictObject({
    engine: Engine,
    searchProviders: z.array(z.string()),
    perspectives: z.int(),
    maxIterations: z.int(),
  }),
});
export type MeView = z.infer<typeof MeView>;
