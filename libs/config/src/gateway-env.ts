import { z } from 'zod';
import { int } from './fields';
import { WorkerEnv } from './schemas';

/** What the gateway reads beyond a worker's settings. */
export const GatewayOwnEnv = z.object({
  PORT: int(8080, 0).describe("The gateway's HTTP port (the API and the web app)"),
  HOST: z.string().min(1).default('0.0.0.0').describe('Address the gateway listens on'),
  /** Largest request body in bytes (uploads included); beyond it the answer is 413. */
  BODY_LIMIT_BYTES: int(10 * 1024 * 1024, 1024).describe('Largest request body in bytes, uploads included; beyond it the answer is 413'),
  /** Default per-tenant request rate (a tenant's policy.rateLimit overrides it). */
  RATE_LIMIT_PER_SECOND: z.coerce
    .number()
    .positive()
    .default(20)
    .describe("Default requests per second of a tenant (its policy's rateLimit overrides it)"),
  RATE_LIMIT_BURST: int(40, 1).describe("Default burst of a tenant's request rate"),
  /**
   * Default limits of a tenant (its policy's `limits` overrides each; issue 30): runs not finished at once, model
   * spend per UTC day and month in USD (new runs, replays and resumes are refused once reached), and event streams
   * one key may hold open. Beyond one, the answer is 429 with `details.limit` naming it.
   */
  RUNS_IN_PROGRESS_PER_TENANT: int(10, 1).describe('Default number of runs of a tenant not finished at once (beyond: 429)'),
  SPEND_PER_DAY_USD: z.coerce.number().positive().default(50).describe('Default model spend of a tenant per UTC day, USD (beyond: 429)'),
  SPEND_PER_MONTH_USD: z.coerce
    .number()
    .positive()
    .default(500)
    .describe('Default model spend of a tenant per UTC month, USD (beyond: 429)'),
  EVENT_STREAMS_PER_KEY: int(20, 1).describe('Default number of event streams one API key may hold open (beyond: 429)'),
  /** How often an idle SSE stream sends a heartbeat comment (events themselves are pushed: LISTEN/NOTIFY). */
  SSE_HEARTBEAT_MS: int(15_000, 100).describe('How often an idle event stream (SSE) sends a heartbeat comment'),
  /**
   * Failed authentications (401) per client address, a GCRA in Redis shared by every replica: this many per
   * minute on average, bursts up to AUTH_FAILURE_BURST; beyond, the address gets 429 with Retry-After.
   */
  AUTH_FAILURE_RATE_PER_MINUTE: z.coerce
    .number()
    .positive()
    .default(30)
    .describe('Failed authentications per client address per minute, shared by every replica (beyond: 429)'),
  AUTH_FAILURE_BURST: int(20, 1).describe('Burst of failed authentications per client address'),
  /**
   * Which peers' X-Forwarded-For is believed when finding the client address (rate limits, the failed-login limit,
   * logs): comma-separated addresses, CIDRs or proxy-addr names (`loopback`, `uniquelocal`, ...). Unset or "false":
   * nobody, so the address is the peer's own. Trusting proxies by default let any client on a private network (or
   * behind a proxy that appends rather than overwrites) name its own address and so escape the per-address limits.
   */
  TRUST_PROXY: z
    .string()
    .min(1)
    .optional()
    .describe('Peers whose X-Forwarded-For is believed (addresses, CIDRs, loopback, uniquelocal…); unset or false: nobody'),
  /** Guards /admin/queues (bull-board). Unset: the operator pages are off. */
  ADMIN_API_KEY: z
    .string()
    .min(16, 'at least 16 characters')
    .optional()
    .describe('Key of the queue dashboard /admin/queues (at least 16 characters); unset: the dashboard is off'),
  /** The built web app (apps/web/dist) served under /; unset: the repository's (and the image's) apps/web/dist. */
  WEB_DIR: z.string().min(1).optional().describe("The built web app served under /; unset: the repository's apps/web/dist"),
});

/**
 * The gateway's environment, validated at boot. It hosts no worker: its queues are only produced to. Its
 * Prometheus metrics are on the ops port (METRICS_PORT, like every worker), never on the public PORT.
 */
export const GatewayEnv = WorkerEnv.extend(GatewayOwnEnv.shape);
export type GatewayEnv = z.infer<typeof GatewayEnv>;
