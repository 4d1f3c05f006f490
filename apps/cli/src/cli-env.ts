import { z } from 'zod';
import { WorkerEnv } from '@dossier/config';

/**
 * The CLI runs on a laptop: the database and Redis default to the local servers, and its queues use a
 * prefix of their own so a local run never mixes with deployed workers on the same Redis.
 */
export const CliEnv = WorkerEnv.extend({
  DATABASE_URL: WorkerEnv.shape.DATABASE_URL.default('postgresql://postgres@127.0.0.1:5432/dossier'),
  REDIS_URL: WorkerEnv.shape.REDIS_URL.default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/)
    .default('dossier-cli'),
  LOG_LEVEL: WorkerEnv.shape.LOG_LEVEL.default('warn'),
  VECTOR_DIR: z.string().min(1).default('.dossier/vectors'),
  DOSSIER_TENANT: z.string().min(1).default('local'),
});
export type CliEnv = z.infer<typeof CliEnv>;
