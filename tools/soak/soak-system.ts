import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_NAMES } from '@dossier/contracts';
import { ServiceProcess } from './service-process';
import { sparePort } from './spare-port';

export const QUEUE_PREFIX = 'soak';

export interface SystemSettings {
  databaseUrl: string;
  redisUrl: string;
  modelBaseUrl: string;
  dir: string;
}

/**
 * The whole system as separate processes: the gateway, the conductor and every stage service, one process
 * each, on the soak's own Postgres and Redis, with the shipped settings (locks, stalls, attempts, backoff, SSE
 * polling); only the conductor looks for lost jobs more often (2 s) and the SSE heartbeat is shorter.
 */
export class SoakSystem {
  readonly services: ServiceProcess[] = [];
  gatewayUrl = '';

  private constructor(private readonly settings: SystemSettings) {}

  static async create(settings: SystemSettings, taken: Set<number>): Promise<SoakSystem> {
    const system = new SoakSystem(settings);
    const logs = path.join(settings.dir, 'logs');
    mkdirSync(logs, { recursive: true });
    const vectors = path.join(settings.dir, 'vectors');
    mkdirSync(vectors, { recursive: true });
    const common: Record<string, string> = {
      NODE_ENV: 'test',
      DATABASE_URL: settings.databaseUrl,
      DATABASE_POOL_MAX: '6',
      REDIS_URL: settings.redisUrl,
      QUEUE_PREFIX,
      LOG_LEVEL: process.env['SOAK_SERVICE_LOG_LEVEL'] ?? 'warn',
      OTEL_SDK_DISABLED: 'true',
      VECTOR_DIR: vectors,
      SHUTDOWN_GRACE_MS: '5000',
      // The local model server; DOSSIER_LLM_TEST_ECHO (NODE_ENV=test only) lets it answer each role and match
      // every request to its llm_calls row.
      OPENAI_BASE_URL: settings.modelBaseUrl,
      OPENAI_API_KEY: 'sk-soak-local',
      OPENAI_MODEL: 'fake-model',
      OPENAI_RATE_PER_SECOND: '100',
      OPENAI_RETRY_BASE_MS: '200',
      OPENAI_MAX_OUTPUT_TOKENS: '32768',
      DOSSIER_LLM_TEST_ECHO: '1',
    };
    const gatewayPort = await sparePort(taken);
    system.gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    system.services.push(
      new ServiceProcess(
        'gateway',
        {
          ...common,
          PORT: String(gatewayPort),
          HOST: '127.0.0.1',
          METRICS_PORT: '0',
          RATE_LIMIT_PER_SECOND: '10000',
          RATE_LIMIT_BURST: '10000',
          SSE_HEARTBEAT_MS: '2000',
        },
        gatewayPort,
        logs,
      ),
    );
    const conductorPort = await sparePort(taken);
    system.services.push(
      new ServiceProcess(
        'conductor',
        {
          ...common,
          METRICS_PORT: String(conductorPort),
          RECONCILE_INTERVAL_MS: '2000',
          RELAY_INTERVAL_MS: '500',
          RELAY_MIN_AGE_MS: '1000',
        },
        conductorPort,
        logs,
      ),
    );
    for (const name of SERVICE_NAMES) {
      const port = await sparePort(taken);
      system.services.push(new ServiceProcess(name, { ...common, METRICS_PORT: String(port) }, port, logs));
    }
    return system;
  }

  service(name: string): ServiceProcess {
    const s = this.services.find((x) => x.name === name);
    if (!s) throw new Error(`no service ${name}`);
    return s;
  }

  /** Starts every process and waits until each answers /healthz. */
  async start(timeoutMs: number): Promise<void> {
    for (const s of this.services) s.start();
    await Promise.all(this.services.map((s) => s.waitUp(timeoutMs)));
  }

  async stop(): Promise<void> {
    await Promise.all(this.services.map((s) => s.close()));
  }
}
