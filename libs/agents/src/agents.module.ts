import { Module, type DynamicModule } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { PrismaService } from '@dossier/db';
import { REDIS } from '@dossier/queue';
import { RunCommands } from '@dossier/workflow';
import { AgentRunner, type AgentRunnerOptions } from './agent-runner';
import { openAIEngineFromEnv } from './openai/openai-engine-from-env';

/** Every run chooses its engine (run.options.engine); the openai one is built from this worker's environment when a run first asks. */
const perRunProvider = {
  provide: AgentRunner,
  useFactory: (prisma: PrismaService, redis: Redis | undefined, runs: RunCommands | undefined) => {
    // Configured workers build the engine at boot (the tokenizer loads then); others only if a run asks, failing that run clearly.
    const eager = process.env['OPENAI_BASE_URL'] && process.env['OPENAI_MODEL'] ? openAIEngineFromEnv(process.env, redis ?? null) : null;
    return new AgentRunner(prisma, {
      engine: 'per-run',
      perRun: { prisma, openai: () => eager ?? openAIEngineFromEnv(process.env, redis ?? null), ...(runs ? { budgetSink: runs } : {}) },
    });
  },
  inject: [PrismaService, { token: REDIS, optional: true }, { token: RunCommands, optional: true }],
};

function fixedProvider(options: AgentRunnerOptions) {
  return { provide: AgentRunner, useFactory: (prisma: PrismaService) => new AgentRunner(prisma, options), inject: [PrismaService] };
}

/**
 * Provides AgentRunner over the process's PrismaService (from the global DbModule). Imported as is, each run's
 * options choose its engine; forRoot fixes one engine for every call (tests).
 */
@Module({ providers: [perRunProvider], exports: [AgentRunner] })
export class AgentsModule {
  static forRoot(options: AgentRunnerOptions): DynamicModule {
    return {
      module: AgentsModule,
      providers: [options.engine === 'per-run' ? perRunProvider : fixedProvider(options)],
      exports: [AgentRunner],
    };
  }
}
