import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestApplication, INestMicroservice, LoggerService, Type } from '@nestjs/common';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { BullMqServer } from '@dossier/queue';

export interface StepMicroservice {
  app: INestMicroservice;
  /** The BullMQ transport: `running` while its workers consume. */
  server: BullMqServer;
}

export interface StepMicroserviceOptions {
  logger?: LoggerService | false;
  /** Called on the created app before it starts listening: global enhancers (tests add a recording interceptor). */
  configure?: (app: INestMicroservice) => void;
}

/**
 * A process that works on step queues: `module` as a Nest microservice over the BullMQ transport (docs/decisions/0035).
 * Resolves when every consumed queue has a worker and each owned node exactly one handler; rejects (naming the node)
 * otherwise. `app.close()` drains the workers, then closes the modules.
 */
export async function createStepMicroservice(
  module: DynamicModule | Type,
  options: StepMicroserviceOptions = {},
): Promise<StepMicroservice> {
  const server = new BullMqServer();
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, {
    strategy: server,
    logger: options.logger ?? false,
    abortOnError: false,
  });
  server.bindTo((token) => app.get(token, { strict: false }));
  options.configure?.(app);
  try {
    await app.listen();
  } catch (err) {
    // A refused boot (a node without a handler) leaves workers and connections half made: close what was opened.
    await app.close().catch(() => undefined);
    throw err;
  }
  return { app, server };
}

/**
 * An HTTP app that also works on step queues (the gateway hosting the stages, in tests): the BullMQ transport as a
 * connected microservice of `app`, started here. Its workers are drained before the app's modules close (StepTransports).
 */
export async function connectStepTransport(app: INestApplication): Promise<BullMqServer> {
  const server = new BullMqServer();
  server.bindTo((token) => app.get(token, { strict: false }));
  app.connectMicroservice<MicroserviceOptions>({ strategy: server });
  await app.startAllMicroservices();
  return server;
}
