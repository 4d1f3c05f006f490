import { Module, type DynamicModule } from '@nestjs/common';
import { RendererStagesModule } from '@dossier/stage-renderer';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/** The renderer service: hosts the renderer queue and the handlers of the nodes it owns. */
@Module({})
export class RendererModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: RendererModule, imports: [WorkflowModule.forRoot(settings), RendererStagesModule] };
  }
}
