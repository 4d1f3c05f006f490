import { z } from 'zod';
import { WorkerEnv } from '@dossier/config';

/**
 * The CLI runs on a laptop: the database and Redis default to the local servers. QUEUE_PREFIX, when unset, is
 * derived from the database as for every process (`defaultQueuePrefix`).
 */
export const CliEnv = WorkerEnv.extend({
  DATABASE_URL: WorkerEnv.shape.DATABASE_URL.default('postgresql://postgres@127.0.0.1:5432/dossier'),
  REDIS_URL: WorkerEnv.shape.REDIS_URL.default('redis://127.0.0.1:6379'),
  LOG_LEVEL: WorkerEnv.shape.LOG_LEVEL.default('warn'),
  VECTOR_DIR: z.string().min(1).default('.dossier/vectors'),
  DOSSIER_TENANT: z.string().min(1).default('local'),
  /** How long a local command waits for Postgres and Redis before it says which one is not answering (service-check.ts). */
  DOSSIER_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});
export type CliEnv = z.infer<typeof CliEnv>;
