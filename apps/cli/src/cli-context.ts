import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@dossier/config';
import { PrismaService, TenantRepository } from '@dossier/db';
import { createStepMicroservice } from '@dossier/workflow';
import { CliEnv } from './cli-env';
import { LocalEngineModule } from './local-engine.module';

export interface CliContext {
  env: CliEnv;
  app: INestApplicationContext;
  prisma: PrismaService;
  tenantId: string;
  close(): Promise<void>;
}

/** Boots the engine in this process (workers only when the command runs research). */
export async function openContext(withWorkers: boolean): Promise<CliContext> {
  const env = loadConfig(CliEnv);
  const module = LocalEngineModule.register(env, withWorkers);
  // With workers, every stage service's queue is consumed here: the stages as one Nest microservice over the BullMQ transport.
  const app: INestApplicationContext = withWorkers
    ? (await createStepMicroservice(module)).app
    : await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
  await app.init();
  const prisma = app.get(PrismaService);
  const tenant = await app.get(TenantRepository).ensure(env.DOSSIER_TENANT);
  return { env, app, prisma, tenantId: tenant.id, close: () => app.close() };
}
