import { Module, type DynamicModule } from '@nestjs/common';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/**
 * The extractor service: hosts the extractor queue. Its stage handlers arrive with the stage issue; until then
 * the boot-time check refuses to start it, naming the nodes that have no handler.
 */
@Module({})
export class ExtractorModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: ExtractorModule, imports: [WorkflowModule.forRoot(settings)] };
  }
}
