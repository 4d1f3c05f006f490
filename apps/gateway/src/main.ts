import './tracing';
import { loadConfig, opsPortFor } from '@dossier/config';
import { checkSchemaAtBoot } from '@dossier/db';
import { describeError } from '@dossier/errors';
import { createLogger, startOpsServer, stopTelemetry } from '@dossier/telemetry';
import { createGateway } from './create-gateway';
import { GatewayEnv } from './gateway-env';

async function main(): Promise<void> {
  const logger = createLogger('gateway');
  const env = loadConfig(GatewayEnv);
  // Before the API opens: a new image against a database its migrations have not reached yet stops here.
  await checkSchemaAtBoot(env.DATABASE_URL, logger);
  const app = await createGateway(env);
  await app.listen({ port: env.PORT, host: env.HOST });
  let stopping = false;
  // Metrics (with /healthz and /readyz) on the ops port, as every worker has them: never on the public API port.
  const opsPort = opsPortFor('gateway', env.METRICS_PORT);
  const ops = opsPort > 0 ? await startOpsServer({ port: opsPort, host: env.HOST, ready: () => !stopping }) : undefined;
  logger.info({ port: env.PORT, metricsPort: ops?.port ?? null }, `gateway listening on ${env.HOST}:${env.PORT}`);
  const grace = env.SHUTDOWN_GRACE_MS;
  const stop = (): void => {
    stopping = true;
    setTimeout(() => process.exit(1), grace).unref();
    void app
      .close()
      .then(() => ops?.close())
      .then(() => stopTelemetry())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err: describeError(err) }, 'error while stopping');
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway: ${describeError(err).message}\n`);
  process.exit(1);
});
