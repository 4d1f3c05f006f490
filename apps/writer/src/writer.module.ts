import { Module, type DynamicModule } from '@nestjs/common';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/**
 * The writer service: hosts the writer queue. Its stage handlers arrive with the stage issue; until then
 * the boot-time check refuses to start it, naming the nodes that have no handler.
 */
@Module({})
export class WriterModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: WriterModule, imports: [WorkflowModule.forRoot(settings)] };
  }
}
