import { Module, type DynamicModule } from '@nestjs/common';
import { ExtractorStagesModule } from '@dossier/stage-extractor';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/** The extractor service: hosts the extractor queue and the handlers of the nodes it owns. */
@Module({})
export class ExtractorModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: ExtractorModule, imports: [WorkflowModule.forRoot(settings), ExtractorStagesModule] };
  }
}
