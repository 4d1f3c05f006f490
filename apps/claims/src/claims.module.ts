import { Module, type DynamicModule } from '@nestjs/common';
import { ClaimsStagesModule } from '@dossier/stage-claims';
import type { WorkerEnv } from '@dossier/config';
import { VectorsModule } from '@dossier/vectors';
import { WorkflowModule, type EngineSettings } from '@dossier/workflow';

/** The claims service: hosts the claims queue and the handlers of the nodes it owns. */
@Module({})
export class ClaimsModule {
  static register(settings: EngineSettings, env: WorkerEnv): DynamicModule {
    return {
      module: ClaimsModule,
      imports: [
        WorkflowModule.forRoot(settings),
        VectorsModule.forRoot({ dir: env.VECTOR_DIR, qdrantUrl: env.QDRANT_URL, qdrantApiKey: env.QDRANT_API_KEY }),
        ClaimsStagesModule,
      ],
    };
  }
}
