import { z } from 'zod';
import { WorkerEnv } from './schemas';

/** What the CLI reads beyond a worker's settings, and the worker settings whose defaults differ on a laptop. */
export const CliOwnEnv = z.object({
  DATABASE_URL: WorkerEnv.shape.DATABASE_URL.default('postgresql://postgres@127.0.0.1:5432/dossier').describe(
    "The CLI's Postgres: the local server unless set",
  ),
  REDIS_URL: WorkerEnv.shape.REDIS_URL.default('redis://127.0.0.1:6379').describe("The CLI's Redis: the local server unless set"),
  LOG_LEVEL: WorkerEnv.shape.LOG_LEVEL.default('warn').describe(
    "The CLI's log level; set, its logs go to stderr, unset they go at info to .dossier/dossier.log",
  ),
  VECTOR_DIR: z.string().min(1).default('.dossier/vectors').describe("The CLI's embedded vector store directory"),
  DOSSIER_TENANT: z.string().min(1).default('local').describe('Tenant of the runs a local command starts and reads'),
  /** How long a local command waits for Postgres and Redis before it says which one is not answering (service-check.ts). */
  DOSSIER_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000)
    .describe('How long a local command waits for Postgres and Redis before naming the one not answering'),
});

/**
 * The CLI runs on a laptop: the database and Redis default to the local servers. QUEUE_PREFIX, when unset, is
 * derived from the database as for every process (`defaultQueuePrefix`).
 */
export const CliEnv = WorkerEnv.extend(CliOwnEnv.shape);
export type CliEnv = z.infer<typeof CliEnv>;

/**
 * The gateway a CLI command goes through instead of the local engine (its --api and --key options win). Read by
 * the command line itself (apps/cli framework), before any local configuration: remote commands need no database.
 */
export const CliRemoteEnv = z.object({
  DOSSIER_API_URL: z.string().optional().describe("A gateway's URL: CLI commands go through it (as --api); blank: local"),
  DOSSIER_API_KEY: z.string().optional().describe('API key of DOSSIER_API_URL (as --key)'),
});
