import { Module, type DynamicModule } from '@nestjs/common';
import { SearcherStagesModule } from '@dossier/stage-searcher';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/** The searcher service: hosts the searcher queue and the handlers of the nodes it owns. */
@Module({})
export class SearcherModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: SearcherModule, imports: [WorkflowModule.forRoot(settings), SearcherStagesModule] };
  }
}
