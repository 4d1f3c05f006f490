import { defaultQueuePrefix, type ConductorEnv, type WorkerEnv } from '@dossier/config';
import type { ServiceName } from '@dossier/contracts';
import { modelEndpointOf } from './hosting/model-endpoint';
import type { EngineSettings } from './workflow.module';

/** Maps a worker's validated environment onto the engine's settings (one place, for every app). */
export function engineSettingsFromEnv(env: WorkerEnv, consume: readonly ServiceName[]): EngineSettings {
  return {
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    databasePoolMin: env.DATABASE_POOL_MIN,
    databasePoolIdleMs: env.DATABASE_POOL_IDLE_MS,
    redisUrl: env.REDIS_URL,
    queuePrefix: env.QUEUE_PREFIX ?? defaultQueuePrefix(env.DATABASE_URL),
    consume,
    concurrency: env.WORKER_CONCURRENCY,
    stepLockMs: env.STEP_LOCK_MS,
    stalledIntervalMs: env.STALLED_INTERVAL_MS,
    attempts: env.STEP_ATTEMPTS,
    backoffMs: env.STEP_BACKOFF_MS,
    modelEndpoint: modelEndpointOf(env.OPENAI_BASE_URL, env.OPENAI_MODEL),
  };
}

export function conductorSettingsFromEnv(env: ConductorEnv): EngineSettings {
  return {
    ...engineSettingsFromEnv(env, []),
    conductor: {
      relayIntervalMs: env.RELAY_INTERVAL_MS,
      reconcileIntervalMs: env.RECONCILE_INTERVAL_MS,
      relayMinAgeMs: env.RELAY_MIN_AGE_MS,
      stallWatchIntervalMs: env.STALL_WATCH_INTERVAL_MS,
    },
  };
}
