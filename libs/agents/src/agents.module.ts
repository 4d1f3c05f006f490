import { Module, type DynamicModule } from '@nestjs/common';
import { PrismaService } from '@dossier/db';
import { AgentRunner, type AgentRunnerOptions } from './agent-runner';

function runnerProvider(options: AgentRunnerOptions) {
  return { provide: AgentRunner, useFactory: (prisma: PrismaService) => new AgentRunner(prisma, options), inject: [PrismaService] };
}

/**
 * Provides AgentRunner over the process's PrismaService (from the global DbModule). Import as is for the offline
 * engine, or through forRoot to choose the engine.
 */
@Module({ providers: [runnerProvider({ engine: 'offline' })], exports: [AgentRunner] })
export class AgentsModule {
  static forRoot(options: AgentRunnerOptions): DynamicModule {
    return { module: AgentsModule, providers: [runnerProvider(options)], exports: [AgentRunner] };
  }
}
