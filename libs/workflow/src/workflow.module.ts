import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceName } from '@dossier/contracts';
import { DbModule } from '@dossier/db';
import { QueueModule, STEP_PROCESSOR, WORKER_LIVENESS } from '@dossier/queue';
import { AuditLog } from './audit/audit-log';
import { CONDUCTOR_OPTIONS, ConductorLoop, type ConductorOptions } from './conductor/conductor-loop';
import { StallWatch } from './conductor/stall-watch';
import { OutboxSender } from './outbox/outbox-sender';
import { Reconciler } from './outbox/reconciler';
import { RunFailures } from './runner/run-failures';
import { StepLeases } from './runner/step-leases';
import { WorkerLivenessLocks } from './runner/worker-liveness-locks';
import { StepRunner } from './runner/step-runner';
import { TransitionWriter } from './runner/transition-writer';
import { WORKFLOWS, type WorkflowGraphs } from './graph/workflow-graphs';
import { RunExpiry } from './conductor/run-expiry';
import { BudgetMarks } from './runner/budget-marks';
import { WORKFLOW_GRAPHS, WORKFLOW_OPTIONS } from './workflow-options';
import { HostLock } from './hosting/host-lock';
import type { ModelEndpoint } from './hosting/model-endpoint';

/** The settings a process needs to host the engine; apps map their validated env onto this. */
export interface EngineSettings {
  databaseUrl: string;
  databasePoolMax: number;
  /** Kept open when idle, and how long the others stay (DbOptions); the database module's defaults when unset. */
  databasePoolMin?: number;
  databasePoolIdleMs?: number;
  redisUrl: string;
  queuePrefix: string;
  /** Services whose queues this process works on; empty for producer-only processes (conductor, gateway, CLI client). */
  consume: readonly ServiceName[];
  concurrency: number;
  stepLockMs: number;
  stalledIntervalMs: number;
  attempts: number;
  backoffMs: number;
  /** Set only in the conductor. */
  conductor?: ConductorOptions;
  /** The node table and graph versions; the code base's own (`WORKFLOWS`) unless a test declares more. */
  workflows?: WorkflowGraphs;
  /**
   * Set by a local `dossier` process: its host id. The runs it starts or resumes are hosted by it, and it advances no
   * other (docs/decisions/0075). Unset: the deployment, whose processes advance every run hosted by none.
   */
  host?: string;
  /** The model endpoint this process's workers call (OPENAI_BASE_URL, OPENAI_MODEL; decision 0076). */
  modelEndpoint?: ModelEndpoint | null;
}

const ENGINE = [
  AuditLog,
  HostLock,
  OutboxSender,
  Reconciler,
  RunFailures,
  StepLeases,
  WorkerLivenessLocks,
  StepRunner,
  TransitionWriter,
  BudgetMarks,
  RunExpiry,
];

@Module({})
export class WorkflowModule {
  static forRoot(s: EngineSettings): DynamicModule {
    const workflows = s.workflows ?? WORKFLOWS;
    return {
      module: WorkflowModule,
      global: true,
      imports: [
        DbModule.forRoot({ url: s.databaseUrl, poolMax: s.databasePoolMax, poolMin: s.databasePoolMin, poolIdleMs: s.databasePoolIdleMs }),
        QueueModule.forRoot({
          redisUrl: s.redisUrl,
          prefix: s.queuePrefix,
          consume: s.consume,
          concurrency: s.concurrency,
          lockDurationMs: s.stepLockMs,
          stalledIntervalMs: s.stalledIntervalMs,
          attempts: s.attempts,
          backoffMs: s.backoffMs,
          nodes: workflows.table,
          ownQueues: s.host !== undefined,
        }),
      ],
      providers: [
        ...ENGINE,
        { provide: STEP_PROCESSOR, useExisting: StepRunner },
        { provide: WORKER_LIVENESS, useExisting: WorkerLivenessLocks },
        { provide: WORKFLOW_GRAPHS, useValue: workflows },
        {
          provide: WORKFLOW_OPTIONS,
          useValue: {
            databaseUrl: s.databaseUrl,
            leaseMs: s.stepLockMs,
            busyRetryMs: 1_000,
            txTimeoutMs: 30_000,
            ...(s.host ? { host: s.host, holdsHost: s.consume.length > 0 } : {}),
            modelEndpoint: s.modelEndpoint ?? null,
          },
        },
        ...(s.conductor ? [{ provide: CONDUCTOR_OPTIONS, useValue: s.conductor }, StallWatch, ConductorLoop] : []),
      ],
      exports: [...ENGINE, STEP_PROCESSOR, WORKER_LIVENESS, WORKFLOW_GRAPHS, WORKFLOW_OPTIONS],
    };
  }
}
