import { z } from 'zod';

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
const url = (protocols: RegExp) =>
  z
    .string()
    .min(1)
    .refine((v) => {
      try {
        return protocols.test(new URL(v).protocol);
      } catch {
        return false;
      }
    }, 'must be a valid URL');

/** Shared pieces; each app composes its own schema from these (one schema per app). */
export const DatabaseEnv = z.object({
  DATABASE_URL: url(/^postgres(ql)?:$/),
  DATABASE_POOL_MAX: int(10, 1),
});

export const RedisEnv = z.object({
  REDIS_URL: url(/^rediss?:$/),
  /**
   * Every queue key starts with this; tests give each file its own. Unset: derived from DATABASE_URL
   * (`defaultQueuePrefix`), so two databases sharing a Redis never share jobs.
   */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/, 'letters, digits, - and _ only')
    .optional(),
});

export const LogEnv = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
    WORKER_CONCURRENCY: int(4, 1),
    STEP_LOCK_MS: int(30_000, 1_000),
    STALLED_INTERVAL_MS: int(1_000, 200),
    STEP_ATTEMPTS: int(5, 1),
    STEP_BACKOFF_MS: int(2_000, 10),
    SHUTDOWN_GRACE_MS: int(25_000, 0),
    /** Port of the process's /metrics, /healthz and /readyz (0 = no server); unset: the service's own (OPS_PORTS). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    /** Where the embedded vector store (LanceDB) keeps its tables: one machine, any number of processes (decision 0033). */
    VECTOR_DIR: z.string().min(1).default('.dossier/vectors'),
    /** When set, vectors live in Qdrant (shared by replicas on several machines) instead of the embedded store. */
    QDRANT_URL: url(/^https?:$/).optional(),
    QDRANT_API_KEY: z.string().min(1).optional(),
    /**
     * The model endpoint this worker's openai engine calls (the agents validate the whole openai configuration when a
     * run asks for it): read here too, as the identity the engine compares with the endpoint a run ran against
     * (docs/decisions/0076).
     */
    OPENAI_BASE_URL: z.string().min(1).optional(),
    OPENAI_MODEL: z.string().min(1).optional(),
  });
export type WorkerEnv = z.infer<typeof WorkerEnv>;

export const ConductorEnv = WorkerEnv.extend({
  RELAY_INTERVAL_MS: int(1_000, 50),
  RECONCILE_INTERVAL_MS: int(5_000, 100),
  /** Outbox rows younger than this are left to the worker that wrote them. */
  RELAY_MIN_AGE_MS: int(2_000, 0),
  /** How often the stall watch compares active jobs with held worker liveness locks (docs/decisions/0027). */
  STALL_WATCH_INTERVAL_MS: int(500, 50),
});
export type ConductorEnv = z.infer<typeof ConductorEnv>;
