import { z } from 'zod';

import { int, url } from './fields';

// Every field ends with `.describe()`: the catalog (catalog.ts) and docs/operations.md's variable table read it.
// zod keeps a description on the instance it was given to, so it must be the last call of the chain.

/** Shared pieces; each app composes its own schema from these (one schema per app). */
export const DatabaseEnv = z.object({
  DATABASE_URL: url(/^postgres(ql)?:$/).describe('Postgres connection URL (postgres:// or postgresql://)'),
  DATABASE_POOL_MAX: int(10, 1).describe("Largest number of connections in a process's Postgres pool"),
  /**
   * A connection the pool closes is a cold Postgres backend when it is opened again: the next step paid 20-100 ms for
   * the connection and its catalog lookups (docs/decisions/0155). Kept: this many, and the rest for DATABASE_POOL_IDLE_MS.
   */
  DATABASE_POOL_MIN: int(2, 0).describe('Connections a process keeps open when idle (at most DATABASE_POOL_MAX)'),
  DATABASE_POOL_IDLE_MS: int(60_000, 0).describe(
    'How long a connection above DATABASE_POOL_MIN stays open unused before the pool closes it (0: never)',
  ),
});

export const RedisEnv = z.object({
  REDIS_URL: url(/^rediss?:$/).describe('Redis connection URL (redis:// or rediss://); Redis must run with maxmemory-policy noeviction'),
  /**
   * Every queue key starts with this; tests give each file its own. Unset: derived from DATABASE_URL
   * (`defaultQueuePrefix`), so two databases sharing a Redis never share jobs.
   */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/, 'letters, digits, - and _ only')
    .optional()
    .describe("Prefix of every queue key; unset: derived from DATABASE_URL's host, port and name, one per database (decision 0077)"),
});

export const LogEnv = z.object({
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('Least severe log level written (fatal, error, warn, info, debug, trace, silent)'),
});

/**
 * Lock and stall settings (docs/decisions/0004, 0027). A worker renews its BullMQ lock every STEP_LOCK_MS/2,
 * from its event loop: a step may block that loop up to STEP_LOCK_MS without being taken. A worker that dies is
 * found by the conductor's stall watch (its Postgres liveness lock is gone) and its step moves on at the next stalled
 * check: about STALL_WATCH_INTERVAL_MS × 2 + STALLED_INTERVAL_MS. STEP_LOCK_MS + STALLED_INTERVAL_MS is the bound
 * when the watch cannot tell (no conductor, or a worker whose Postgres connection outlives it). STEP_LOCK_MS is also
 * the lease of a running step (docs/decisions/0070), renewed every STEP_LOCK_MS/3.
 */
export const WorkerEnv = DatabaseEnv.extend(RedisEnv.shape)
  .extend(LogEnv.shape)
  .extend({
    WORKER_CONCURRENCY: int(8, 1).describe('Steps one worker process runs at once'),
    STEP_LOCK_MS: int(30_000, 1_000).describe(
      "BullMQ job lock and step lease, renewed every half (lease: every third); the bound on a dead worker's step when the stall watch cannot tell",
    ),
    STALLED_INTERVAL_MS: int(1_000, 200).describe('How often workers look for stalled jobs'),
    STEP_ATTEMPTS: int(5, 1).describe('Deliveries of a step before it fails for good (exponential backoff between them)'),
    STEP_BACKOFF_MS: int(2_000, 10).describe('First retry delay of a failed step (×2 each time, at most 60 s, ±20 % jitter)'),
    SHUTDOWN_GRACE_MS: int(25_000, 0).describe('After SIGTERM: how long in-flight steps may finish before the process exits'),
    /** Port of the process's /metrics, /healthz and /readyz (0 = no server); unset: the service's own (OPS_PORTS). */
    METRICS_PORT: z.coerce
      .number()
      .int()
      .min(0)
      .max(65_535)
      .optional()
      .describe("Port of /metrics, /healthz and /readyz (0 = no server); unset: the service's own (gateway 9464 … renderer 9472)"),
    /** Where the embedded vector store (LanceDB) keeps its tables: one machine, any number of processes (decision 0033). */
    VECTOR_DIR: z
      .string()
      .min(1)
      .default('.dossier/vectors')
      .describe('Directory of the embedded vector store (LanceDB), shared by any number of processes on one machine'),
    /** When set, vectors live in Qdrant (shared by replicas on several machines) instead of the embedded store. */
    QDRANT_URL: url(/^https?:$/)
      .optional()
      .describe('Qdrant URL: vectors live in Qdrant (several machines) instead of VECTOR_DIR'),
    QDRANT_API_KEY: z.string().min(1).optional().describe("Qdrant's API key, when it asks for one"),
    /**
     * The model endpoint this worker's openai engine calls (the agents validate the whole openai configuration when a
     * run asks for it): read here too, as the identity the engine compares with the endpoint a run ran against
     * (docs/decisions/0076).
     */
    OPENAI_BASE_URL: z
      .string()
      .min(1)
      .optional()
      .describe("Base URL of the OpenAI-compatible endpoint of the openai engine (also the run's recorded endpoint)"),
    OPENAI_MODEL: z.string().min(1).optional().describe('Model of every role without its own OPENAI_MODEL_<ROLE>'),
  });
export type WorkerEnv = z.infer<typeof WorkerEnv>;

/** What the conductor reads beyond a worker's settings. */
export const ConductorOwnEnv = z.object({
  RELAY_INTERVAL_MS: int(1_000, 50).describe('How often the conductor relays outbox rows no worker enqueued'),
  RECONCILE_INTERVAL_MS: int(5_000, 100).describe('How often the conductor re-sends steps Redis lost'),
  /** Outbox rows younger than this are left to the worker that wrote them. */
  RELAY_MIN_AGE_MS: int(2_000, 0).describe('Outbox rows younger than this are left to the worker that wrote them'),
  /** How often the stall watch compares active jobs with held worker liveness locks (docs/decisions/0027). */
  STALL_WATCH_INTERVAL_MS: int(500, 50).describe(
    "How often the conductor compares active jobs with held worker liveness locks: a dead worker's step moves on in about 2 s",
  ),
});

export const ConductorEnv = WorkerEnv.extend(ConductorOwnEnv.shape);
export type ConductorEnv = z.infer<typeof ConductorEnv>;
