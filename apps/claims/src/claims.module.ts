import { Module, type DynamicModule } from '@nestjs/common';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/**
 * The claims service: hosts the claims queue. Its stage handlers arrive with the stage issue; until then
 * the boot-time check refuses to start it, naming the nodes that have no handler.
 */
@Module({})
export class ClaimsModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: ClaimsModule, imports: [WorkflowModule.forRoot(settings)] };
  }
}
