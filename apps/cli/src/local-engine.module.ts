import { Module, type DynamicModule } from '@nestjs/common';
import { SERVICE_NAMES } from '@dossier/contracts';
import { ClaimsStagesModule } from '@dossier/stage-claims';
import { ExtractorStagesModule } from '@dossier/stage-extractor';
import { PlannerStagesModule } from '@dossier/stage-planner';
import { RendererStagesModule } from '@dossier/stage-renderer';
import { SearcherStagesModule } from '@dossier/stage-searcher';
import { VerifierStagesModule } from '@dossier/stage-verifier';
import { WriterStagesModule } from '@dossier/stage-writer';
import { VectorsModule } from '@dossier/vectors';
import { RunsModule } from '@dossier/runs';
import { engineSettingsFromEnv, WorkflowModule } from '@dossier/workflow';
import type { CliEnv } from './cli-env';

const STAGES = [
  PlannerStagesModule,
  SearcherStagesModule,
  ExtractorStagesModule,
  ClaimsStagesModule,
  WriterStagesModule,
  VerifierStagesModule,
  RendererStagesModule,
];

/**
 * Local mode: every stage service in this one process, from the same modules the services use, plus
 * the conductor's relay and reconciliation. `withWorkers: false` builds a client-only context (ingest,
 * runs, show, approve) that starts no worker.
 */
@Module({})
export class LocalEngineModule {
  static register(env: CliEnv, withWorkers: boolean): DynamicModule {
    const settings = engineSettingsFromEnv(env, withWorkers ? SERVICE_NAMES : []);
    return {
      module: LocalEngineModule,
      imports: [
        WorkflowModule.forRoot({
          ...settings,
          ...(withWorkers
            ? { conductor: { relayIntervalMs: 1_000, reconcileIntervalMs: 5_000, relayMinAgeMs: 2_000, stallWatchIntervalMs: 500 } }
            : {}),
        }),
        RunsModule,
        // Only the stages use vectors: a client command (approve, intervene, show) has no use for the store.
        ...(withWorkers ? [VectorsModule.forRoot({ dir: env.VECTOR_DIR }), ...STAGES] : []),
      ],
    };
  }
}
