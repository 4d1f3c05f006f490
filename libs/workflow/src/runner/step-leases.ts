import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ExecutionRepository, type StepLease } from '@dossier/db';
import { describeError } from '@dossier/errors';
import { createLogger } from '@dossier/telemetry';
import { WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';
import { WorkerLivenessLocks } from './worker-liveness-locks';

/**
 * This process's side of step ownership (docs/decisions/0070). A step is owned through its `node_executions` row: the
 * lease owner (this process's liveness lock id) and an expiry, taken in the statement that starts the attempt. Nothing
 * is held on a connection while the step runs: a step waiting a minute on a model holds no Postgres connection.
 *
 * Here: the steps this process runs (so a second delivery of one of them to this process is postponed without asking
 * Postgres, and a takeover of its own stale row is allowed), and the heartbeat that renews all their leases in one
 * statement every third of the lease. The lease only matters when the owner's liveness lock outlives the owner (a
 * network partition keeps its session open on the server): a dead process loses its lock, and its steps, at once.
 */
@Injectable()
export class StepLeases implements OnModuleInit, OnModuleDestroy {
  private readonly logger = createLogger('step-leases');
  /** Step key → the attempt this process runs. */
  private readonly running = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private renewing = false;

  constructor(
    private readonly executions: ExecutionRepository,
    private readonly liveness: WorkerLivenessLocks,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
  ) {}

  /** Who takes a lease here, and for how long. */
  get lease(): StepLease {
    return { owner: this.liveness.leaseOwner, ms: this.options.leaseMs };
  }

  /** Claims the step in this process before asking Postgres; false when this process runs it already. */
  claim(stepKey: string): boolean {
    if (this.running.has(stepKey)) return false;
    this.running.set(stepKey, 0);
    return true;
  }

  /**
   * The heartbeat starts with the module, not with the first step: a timer started inside a step would run every beat in
   * that step's async context (its log context, its span), and its renewals would be logged and counted as that step's.
   * A beat with no step running sends nothing.
   */
  onModuleInit(): void {
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(this.options.leaseMs / 3))).unref();
  }

  /** The attempt started under the claim: its lease is renewed from now on. */
  started(stepKey: string, attempt: number): void {
    this.running.set(stepKey, attempt);
  }

  release(stepKey: string): void {
    this.running.delete(stepKey);
  }

  /** Step keys this process runs (started attempts). */
  get held(): string[] {
    return [...this.running].filter(([, attempt]) => attempt > 0).map(([key]) => key);
  }

  /** One heartbeat: renews every started step's lease in one statement; a failure is logged and retried next beat. */
  async renew(): Promise<number> {
    const keys = this.held;
    if (keys.length === 0 || this.renewing) return 0;
    this.renewing = true;
    try {
      return await this.executions.renewLeases(this.liveness.leaseOwner, keys, this.options.leaseMs);
    } catch (err) {
      this.logger.warn({ err: describeError(err), steps: keys.length }, 'could not renew step leases; retrying at the next beat');
      return 0;
    } finally {
      this.renewing = false;
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
