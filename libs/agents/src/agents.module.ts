import { Module, type DynamicModule, type InjectionToken } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { PrismaService } from '@dossier/db';
import { AgentRunner, type AgentRunnerOptions } from './agent-runner';
import type { BudgetExhaustionSink } from './budget/budget-exhaustion-sink';
import { openAIEngineFromEnv } from './openai/openai-engine-from-env';

/**
 * What a worker lends the agents, named by the worker's own injection tokens: agents know no queue and no
 * workflow (docs/decisions/0031), so the stages say where the shared Redis connection (rate limits across
 * workers) and the budget-exhaustion sink (the workflow's RunCommands) come from.
 */
export interface AgentPorts {
  redis: InjectionToken<Redis>;
  budgetSink: InjectionToken<BudgetExhaustionSink>;
}

/** Every run chooses its engine (run.options.engine); the openai one is built from this worker's environment when a run first asks. */
function perRunProvider(ports?: AgentPorts) {
  return {
    provide: AgentRunner,
    useFactory: (prisma: PrismaService, redis: Redis | undefined, budgetSink: BudgetExhaustionSink | undefined) => {
      // Configured workers build the engine at boot (the tokenizer loads then); others only if a run asks, failing that run clearly.
      const eager = process.env['OPENAI_BASE_URL'] && process.env['OPENAI_MODEL'] ? openAIEngineFromEnv(process.env, redis ?? null) : null;
      return new AgentRunner(prisma, {
        engine: 'per-run',
        perRun: { prisma, openai: () => eager ?? openAIEngineFromEnv(process.env, redis ?? null), ...(budgetSink ? { budgetSink } : {}) },
      });
    },
    inject: [
      PrismaService,
      ...(ports
        ? [
            { token: ports.redis, optional: true },
            { token: ports.budgetSink, optional: true },
          ]
        : []),
    ],
  };
}

function fixedProvider(options: AgentRunnerOptions) {
  return { provide: AgentRunner, useFactory: (prisma: PrismaService) => new AgentRunner(prisma, options), inject: [PrismaService] };
}

/** One module per pair of ports: Nest tells modules apart by reference, and a process wants one AgentRunner (one rate limiter). */
const pipelineModules = new Map<InjectionToken, Map<InjectionToken, DynamicModule>>();

/**
 * Provides AgentRunner over the process's PrismaService (from the global DbModule). Imported as is, each run's
 * options choose its engine, with no shared Redis and no budget sink; forPipeline lends it the worker's;
 * forRoot fixes one engine for every call (tests).
 */
@Module({ providers: [perRunProvider()], exports: [AgentRunner] })
export class AgentsModule {
  static forPipeline(ports: AgentPorts): DynamicModule {
    const byRedis = pipelineModules.get(ports.redis) ?? new Map<InjectionToken, DynamicModule>();
    pipelineModules.set(ports.redis, byRedis);
    const existing = byRedis.get(ports.budgetSink);
    if (existing) return existing;
    const created: DynamicModule = { module: AgentsModule, providers: [perRunProvider(ports)], exports: [AgentRunner] };
    byRedis.set(ports.budgetSink, created);
    return created;
  }

  static forRoot(options: AgentRunnerOptions): DynamicModule {
    return {
      module: AgentsModule,
      providers: [options.engine === 'per-run' ? perRunProvider() : fixedProvider(options)],
      exports: [AgentRunner],
    };
  }
}
