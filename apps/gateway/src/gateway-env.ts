import { z } from 'zod';
import { WorkerEnv } from '@dossier/config';

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

/**
 * The gateway's environment, validated at boot. It hosts no worker: its queues are only produced to. Its
 * Prometheus metrics are on the ops port (METRICS_PORT, like every worker), never on the public PORT.
 */
export const GatewayEnv = WorkerEnv.extend({
  PORT: int(8080, 0),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Largest request body in bytes (uploads included); beyond it the answer is 413. */
  BODY_LIMIT_BYTES: int(10 * 1024 * 1024, 1024),
  /** Default per-tenant request rate (a tenant's policy.rateLimit overrides it). */
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(20),
  RATE_LIMIT_BURST: int(40, 1),
  /**
   * Default limits of a tenant (its policy's `limits` overrides each; issue 30): runs not finished at once, model
   * spend per UTC day and month in USD (new runs, replays and resumes are refused once reached), and event streams
   * one key may hold open. Beyond one, the answer is 429 with `details.limit` naming it.
   */
  RUNS_IN_PROGRESS_PER_TENANT: int(10, 1),
  SPEND_PER_DAY_USD: z.coerce.number().positive().default(50),
  SPEND_PER_MONTH_USD: z.coerce.number().positive().default(500),
  EVENT_STREAMS_PER_KEY: int(20, 1),
  /** How often an idle SSE stream sends a heartbeat comment (events themselves are pushed: LISTEN/NOTIFY). */
  SSE_HEARTBEAT_MS: int(15_000, 100),
  /**
   * Failed authentications (401) per client address, a GCRA in Redis shared by every replica: this many per
   * minute on average, bursts up to AUTH_FAILURE_BURST; beyond, the address gets 429 with Retry-After.
   */
  AUTH_FAILURE_RATE_PER_MINUTE: z.coerce.number().positive().default(30),
  AUTH_FAILURE_BURST: int(20, 1),
  /**
   * Which peers' X-Forwarded-For is believed when finding the client address (rate limits, the failed-login limit,
   * logs): comma-separated addresses, CIDRs or proxy-addr names (`loopback`, `uniquelocal`, ...). Unset or "false":
   * nobody, so the address is the peer's own. Trusting proxies by default let any client on a private network (or
   * behind a proxy that appends rather than overwrites) name its own address and so escape the per-address limits.
   */
  TRUST_PROXY: z.string().min(1).optional(),
  /** Guards /admin/queues (bull-board). Unset: the operator pages are off. */
  ADMIN_API_KEY: z.string().min(16, 'at least 16 characters').optional(),
  /** The built web app (apps/web/dist) served under /; unset: the repository's (and the image's) apps/web/dist. */
  WEB_DIR: z.string().min(1).optional(),
});
export type GatewayEnv = z.infer<typeof GatewayEnv>;
