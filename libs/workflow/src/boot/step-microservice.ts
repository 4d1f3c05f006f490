import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestMicroservice, LoggerService, Type } from '@nestjs/common';
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
  server.bindTo(<T>(token: symbol) => app.get<T>(token, { strict: false }));
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
