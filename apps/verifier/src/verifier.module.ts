import { Module, type DynamicModule } from '@nestjs/common';
import { VerifierStagesModule } from '@dossier/stage-verifier';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/** The verifier service: hosts the verifier queue and the handlers of the nodes it owns. */
@Module({})
export class VerifierModule {
  static register(settings: EngineSettings): DynamicModule {
    return { module: VerifierModule, imports: [WorkflowModule.forRoot(settings), VerifierStagesModule] };
  }
}
