import { Module, type DynamicModule } from '@nestjs/common';
import { PlannerStagesModule } from '@dossier/stage-planner';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/** The planner service: hosts the planner queue and the handlers of the nodes it owns. */
@Module({})
export class PlannerModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: PlannerModule, imports: [WorkflowModule.forRoot(settings), PlannerStagesModule] };
  }
}
