import { Module, type DynamicModule, type InjectionToken, type Provider, type Type } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { environment } from '@dossier/config';
import { AgentRunner, type AgentRunnerOptions } from './agent-runner';
import type { BudgetExhaustionSink } from './budget/budget-exhaustion-sink';
import { openAIEngineFromEnv } from './openai/openai-engine-from-env';
import { EXTERNAL_ANSWERS, LIVE_ANSWERS, type ExternalAnswers } from './ports/external-answers';
import type { LlmCallLog } from './ports/llm-call-log';
import type { RunSettingsSource } from './ports/run-settings';
import type { SpendStore } from './ports/spend-store';

/** Every persistence port the agents have, as one adapter implements them (PrismaAgentStore in @dossier/agent-store). */
export type AgentStore = LlmCallLog & RunSettingsSource & SpendStore;

/**
 * What a worker lends the agents, named by the worker's own injection tokens: agents know no queue, no workflow
 * and no database (docs/decisions/0031, 0034), so the stages say where the shared Redis connection (rate limits
 * across workers), the budget-exhaustion sink (the workflow's RunCommands), the persistence adapter and the run's
 * recording of external answers come from. `store` and `answers` are classes this module instantiates, so their own
 * dependencies (the global PrismaService) are injected.
 */
export interface AgentPorts {
  redis: InjectionToken<Redis>;
  budgetSink: InjectionToken<BudgetExhaustionSink>;
  store: Type<AgentStore>;
  /** The run's recording (decision 0030), provided as EXTERNAL_ANSWERS to the runner and to embedders (RunEmbedder). */
  answers: Type<ExternalAnswers>;
}

/** EXTERNAL_ANSWERS: the adapter's recording, or none (every call live, unrecorded) when no adapter is given. */
function answersProvider(answers: Type<ExternalAnswers> | undefined): Provider {
  return answers ? { provide: EXTERNAL_ANSWERS, useClass: answers } : { provide: EXTERNAL_ANSWERS, useValue: LIVE_ANSWERS };
}

/** Every run chooses its engine (run.options.engine); the openai one is built from this worker's environment when a run first asks. */
function perRunProvider(store: Type<AgentStore>, ports?: Omit<AgentPorts, 'store'>) {
  return {
    provide: AgentRunner,
    useFactory: (adapter: AgentStore, answers: ExternalAnswers, redis: Redis | undefined, budgetSink: BudgetExhaustionSink | undefined) => {
      // Configured workers build the engine at boot (the tokenizer loads then); others only if a run asks, failing that run clearly.
      const env = environment();
      const eager = env['OPENAI_BASE_URL'] && env['OPENAI_MODEL'] ? openAIEngineFromEnv(env, redis ?? null) : null;
      return new AgentRunner(adapter, {
        engine: 'per-run',
        answers,
        perRun: {
          store: adapter,
          openai: () => eager ?? openAIEngineFromEnv(env, redis ?? null),
          ...(budgetSink ? { budgetSink } : {}),
        },
      });
    },
    inject: [
      store,
      EXTERNAL_ANSWERS,
      ...(ports
        ? [
            { token: ports.redis, optional: true },
            { token: ports.budgetSink, optional: true },
          ]
        : []),
    ],
  };
}

/** One module per set of ports: Nest tells modules apart by reference, and a process wants one AgentRunner (one rate limiter). */
const pipelineModules: { ports: AgentPorts; module: DynamicModule }[] = [];

/**
 * Provides AgentRunner over a persistence adapter, and EXTERNAL_ANSWERS. forPipeline lends it the worker's Redis,
 * budget sink, adapter and recording (each run's options choose its engine); forRoot fixes the engine, or runs per
 * run with no shared Redis and no budget sink, recording only when given `answers` (tests).
 */
@Module({})
export class AgentsModule {
  static forPipeline(ports: AgentPorts): DynamicModule {
    for (const known of pipelineModules) {
      const k = known.ports;
      if (k.redis === ports.redis && k.budgetSink === ports.budgetSink && k.store === ports.store && k.answers === ports.answers)
        return known.module;
    }
    const module: DynamicModule = {
      module: AgentsModule,
      providers: [ports.store, answersProvider(ports.answers), perRunProvider(ports.store, ports)],
      exports: [AgentRunner, EXTERNAL_ANSWERS],
    };
    pipelineModules.push({ ports, module });
    return module;
  }

  static forRoot(
    options: Omit<AgentRunnerOptions, 'perRun' | 'answers'> & { store: Type<AgentStore>; answers?: Type<ExternalAnswers> },
  ): DynamicModule {
    const { store, engine } = options;
    const runner =
      engine === 'per-run'
        ? perRunProvider(store)
        : {
            provide: AgentRunner,
            useFactory: (adapter: AgentStore, answers: ExternalAnswers) => new AgentRunner(adapter, { engine, answers }),
            inject: [store, EXTERNAL_ANSWERS],
          };
    return { module: AgentsModule, providers: [store, answersProvider(options.answers), runner], exports: [AgentRunner, EXTERNAL_ANSWERS] };
  }
}
