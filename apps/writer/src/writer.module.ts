import { Module, type DynamicModule } from '@nestjs/common';
import { WriterStagesModule } from '@dossier/stage-writer';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/** The writer service: hosts the writer queue and the handlers of the nodes it owns. */
@Module({})
export class WriterModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: WriterModule, imports: [WorkflowModule.forRoot(settings), WriterStagesModule] };
  }
}
