import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@dossier/config';
import { PrismaService, TenantRepository } from '@dossier/db';
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
  const app = await NestFactory.createApplicationContext(LocalEngineModule.register(env, withWorkers), {
    logger: false,
    abortOnError: false,
  });
  await app.init();
  const prisma = app.get(PrismaService);
  const tenant = await app.get(TenantRepository).ensure(env.DOSSIER_TENANT);
  return { env, app, prisma, tenantId: tenant.id, close: () => app.close() };
}
