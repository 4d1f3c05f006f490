import { Module, type DynamicModule } from '@nestjs/common';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/**
 * The searcher service: hosts the searcher queue. Its stage handlers arrive with the stage issue; until then
 * the boot-time check refuses to start it, naming the nodes that have no handler.
 */
@Module({})
export class SearcherModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: SearcherModule, imports: [WorkflowModule.forRoot(settings)] };
  }
}
