import { Module, type DynamicModule } from '@nestjs/common';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/**
 * The verifier service: hosts the verifier queue. Its stage handlers arrive with the stage issue; until then
 * the boot-time check refuses to start it, naming the nodes that have no handler.
 */
@Module({})
export class VerifierModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: VerifierModule, imports: [WorkflowModule.forRoot(settings)] };
  }
}
