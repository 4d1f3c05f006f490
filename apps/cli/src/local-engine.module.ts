import { randomBytes } from 'node:crypto';
import { Module, type DynamicModule } from '@nestjs/common';
import { SERVICE_NAMES } from '@dossier/contracts';
import { RunsModule } from '@dossier/runs';
import { engineSettingsFromEnv, WorkflowModule } from '@dossier/workflow';
import type { CliEnv } from './cli-env';

/**
 * The stage modules and the vector store, loaded only by a process that hosts workers: they bring every agent, source
 * adapter and LanceDB's native library, which a command that only reads (runs, show, report) has no use for (issue 28).
 */
export function workerImports(env: CliEnv): DynamicModule['imports'] {
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy loads, see above */
  const { VectorsModule } = require('@dossier/vectors') as typeof import('@dossier/vectors');
  return [
    VectorsModule.forRoot({ dir: env.VECTOR_DIR }),
    (require('@dossier/stage-planner') as typeof import('@dossier/stage-planner')).PlannerStagesModule,
    (require('@dossier/stage-searcher') as typeof import('@dossier/stage-searcher')).SearcherStagesModule,
    (require('@dossier/stage-extractor') as typeof import('@dossier/stage-extractor')).ExtractorStagesModule,
    (require('@dossier/stage-claims') as typeof import('@dossier/stage-claims')).ClaimsStagesModule,
    (require('@dossier/stage-writer') as typeof import('@dossier/stage-writer')).WriterStagesModule,
    (require('@dossier/stage-verifier') as typeof import('@dossier/stage-verifier')).VerifierStagesModule,
    (require('@dossier/stage-renderer') as typeof import('@dossier/stage-renderer')).RendererStagesModule,
  ];
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * Local mode: every stage service in this one process, from the same modules the services use, plus
 * the conductor's relay and reconciliation, for the runs this process hosts (0075). `withWorkers: false` builds a client-only context (ingest,
 * runs, show, approve) that starts no worker.
 */
/**
 * This process's host id (docs/decisions/0075): every context it opens shares it (`dossier mcp` opens a second one for
 * its workers). A run it starts or resumes is hosted by it, and its steps go through queues of its own
 * (`<QUEUE_PREFIX>-<host id>`), which no other process consumes: another local process on the same database never
 * takes this one's steps, nor this one another's.
 */
const HOST = `cli-${randomBytes(6).toString('hex')}`;

@Module({})
export class LocalEngineModule {
  static register(env: CliEnv, withWorkers: boolean): DynamicModule {
    const settings = engineSettingsFromEnv(env, withWorkers ? SERVICE_NAMES : []);
    return {
      module: LocalEngineModule,
      imports: [
        WorkflowModule.forRoot({
          ...settings,
          host: HOST,
          queuePrefix: `${settings.queuePrefix}-${HOST}`,
          ...(withWorkers
            ? { conductor: { relayIntervalMs: 1_000, reconcileIntervalMs: 5_000, relayMinAgeMs: 2_000, stallWatchIntervalMs: 500 } }
            : {}),
        }),
        RunsModule,
        // Only the stages use vectors: a client command (approve, intervene, show) has no use for the store.
        ...(withWorkers ? (workerImports(env) ?? []) : []),
      ],
    };
  }
}
