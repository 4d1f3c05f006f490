import { Module, type DynamicModule } from '@nestjs/common';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/**
 * The renderer service: hosts the renderer queue. Its stage handlers arrive with the stage issue; until then
 * the boot-time check refuses to start it, naming the nodes that have no handler.
 */
@Module({})
export class RendererModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: RendererModule, imports: [WorkflowModule.forRoot(settings)] };
  }
}
