import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { ConductorEnv, WorkerEnv, loadConfig, opsPortFor } from '@dossier/config';
import type { ServiceName } from '@dossier/contracts';
import { checkSchemaAtBoot } from '@dossier/db';
import { describeError } from '@dossier/errors';
import { createLogger, NestPinoLogger, startOpsServer, stopTelemetry, type OpsServer } from '@dossier/telemetry';
import { conductorSettingsFromEnv, engineSettingsFromEnv } from '../engine-settings';
import type { EngineSettings } from '../workflow.module';
import { createStepMicroservice } from './step-microservice';
import type { BullMqServer } from '@dossier/queue';

export interface ServiceDefinition {
  /** Used in logs and the OTel service name. */
  name: string;
  /** The queues this process works on (a worker service owns one; local mode hosts several). */
  consume: readonly ServiceName[];
  conductor?: boolean;
  module: (settings: EngineSettings, env: WorkerEnv) => DynamicModule;
}

/**
 * Boots one service process: validate the environment (fail fast, naming the variable), create the Nest
 * microservice over the BullMQ transport (a node without a handler fails boot, naming it; the conductor is a plain
 * context), then run until SIGTERM/SIGINT, when `app.close()` stops the workers taking jobs and lets in-flight steps
 * finish within SHUTDOWN_GRACE_MS.
 */
export async function startService(def: ServiceDefinition): Promise<INestApplicationContext | undefined> {
  const logger = createLogger(def.name);
  let app: INestApplicationContext | undefined;
  let ops: OpsServer | undefined;
  let stopping = false;
  // The validated SHUTDOWN_GRACE_MS; the boot below exits the process when the environment does not parse.
  let grace = 25_000;
  try {
    const env = def.conductor ? loadConfig(ConductorEnv) : loadConfig(WorkerEnv);
    grace = env.SHUTDOWN_GRACE_MS;
    // Before any work is taken: a new image against a database its migrations have not reached yet stops here.
    await checkSchemaAtBoot(env.DATABASE_URL, logger);
    const settings = def.conductor ? conductorSettingsFromEnv(env as ConductorEnv) : engineSettingsFromEnv(env, def.consume);
    const module = def.module(settings, env);
    const nestLogger = new NestPinoLogger(logger);
    let host: BullMqServer | undefined;
    if (def.consume.length > 0) {
      // A stage service is a Nest microservice over the BullMQ transport; the conductor only produces (a plain context).
      const service = await createStepMicroservice(module, { logger: nestLogger });
      app = service.app;
      host = service.server;
    } else {
      app = await NestFactory.createApplicationContext(module, { logger: nestLogger, abortOnError: false });
      await app.init();
    }
    // Ready while consuming and not draining; /healthz stays up through the drain so the pod is not killed early.
    const port = opsPortFor(def.name, env.METRICS_PORT);
    if (port > 0) ops = await startOpsServer({ port, ready: () => !stopping && (host?.running ?? true) });
  } catch (err) {
    const e = describeError(err);
    logger.fatal({ err: e }, `${def.name} failed to start: ${e.message}`);
    // Plain text too: a person starting the service reads stderr, not JSON.
    process.stderr.write(`${def.name}: ${e.message}\n`);
    // A failed Nest boot leaves its half-made connections open, and nothing can close them: exit.
    process.exit(1);
  }
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${def.name} stopping: no new steps; finishing in-flight ones`);
    const force = setTimeout(() => {
      logger.error(
        `${def.name} did not stop within ${grace} ms; exiting (unfinished steps are released to other workers by the stall check)`,
      );
      process.exit(1);
    }, grace);
    force.unref();
    void app!
      .close()
      .then(() => ops?.close())
      .then(() => stopTelemetry())
      .then(() => {
        logger.info(`${def.name} stopped`);
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error({ err: describeError(err) }, 'error while stopping');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  logger.info({ consume: def.consume, metricsPort: ops?.port ?? null }, `${def.name} ready`);
  return app;
}
