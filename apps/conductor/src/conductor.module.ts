import { Module, type DynamicModule } from '@nestjs/common';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/**
 * The conductor: relays outbox rows nobody enqueued, re-enqueues steps Redis lost, expires gates and
 * deadlines (ConductorLoop). It consumes no queue and runs no step.
 */
@Module({})
export class ConductorModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: ConductorModule, imports: [WorkflowModule.forRoot(settings)] };
  }
}
