import { Inject, Injectable } from '@nestjs/common';
import type { NodeName } from '@dossier/contracts';
import { OutboxRepository, type OutboxRowData } from '@dossier/db';
import { StepQueues } from '@dossier/queue';
import { createLogger, withProducerSpan } from '@dossier/telemetry';
import type { WorkflowGraphs } from '../graph/workflow-graphs';
import { WORKFLOW_GRAPHS, WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';
import { OutboxSender } from './outbox-sender';

const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

export interface ReconcileReport {
  checked: number;
  reenqueued: number;
}

/**
 * Postgres is the truth about which steps must run; Redis may lose them (FLUSHALL, eviction, a restart
 * with no persistence). For every decided, unfinished step of a running run this process hosts (0075), make sure a
 * live job exists, and enqueue it again if not. Enqueue is idempotent, so racing a worker is harmless.
 */
@Injectable()
export class Reconciler {
  private readonly logger = createLogger('reconciler');

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly queues: StepQueues,
    private readonly sender: OutboxSender,
    @Inject(WORKFLOW_GRAPHS) private readonly workflows: WorkflowGraphs,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
  ) {}

  /** Whose runs this process relays and reconciles: its own host's (a local process), or the deployment's (0075). */
  private get host(): string | null {
    return this.options.host ?? null;
  }

  /**
   * Sends outbox rows still pending after `minAgeMs`: steps nobody enqueued (the worker died between commit and enqueue,
   * or the decision was taken in a process that does not host the run: a gate decided from another shell), and steps
   * whose job still waits in a busy queue (a row is marked when its step starts, docs/decisions/0071; enqueueing an
   * existing job id is a no-op). Each row is sent once: the relay marks what it sent.
   */
  async relay(minAgeMs: number, limit = 500): Promise<number> {
    let sent = 0;
    for (const row of await this.outbox.relayable(new Date(Date.now() - minAgeMs), limit, this.host)) {
      const job = this.workflows.table.stepJob.parse(row.payload);
      // In the run's trace, like reconciliation: the relayed step is a child of the conductor's span.
      const n = await withProducerSpan(`relay ${row.node}`, job.trace, this.attributes(row), (trace) =>
        this.sender.send([{ ...row, payload: { ...job, ...(trace ? { trace } : {}) } }]),
      );
      // Marked here, not by the sender (docs/decisions/0071): a relayed row whose job still waits in a busy queue is not
      // sent again at every tick until its step starts.
      if (n > 0) await this.outbox.markSent([row.id]);
      // Nothing sent: Redis refused; the rest waits for the next tick rather than failing one by one.
      if (n === 0) break;
      sent += n;
    }
    return sent;
  }

  private attributes(row: OutboxRowData): Record<string, string | number> {
    return { 'dossier.run_id': row.runId, 'dossier.node': row.node, 'dossier.iteration': row.iteration, 'dossier.shard': row.shard };
  }

  async reconcile(limit = 5_000, runId?: string): Promise<ReconcileReport> {
    const rows = await this.outbox.unfinished(limit, runId, this.host);
    let reenqueued = 0;
    for (const row of rows) {
      if (await this.ensureLive(row)) reenqueued++;
    }
    if (reenqueued > 0) this.logger.warn({ reenqueued, checked: rows.length }, 're-enqueued steps that had no live job');
    return { checked: rows.length, reenqueued };
  }

  private async ensureLive(row: OutboxRowData): Promise<boolean> {
    const ref = { runId: row.runId, node: row.node as NodeName, iteration: row.iteration, shard: row.shard };
    const state = await this.queues.state(ref);
    if (LIVE_STATES.has(state)) return false;
    // Finished in Redis but not completed in Postgres (skipped while cancelled, or failed before a resume):
    // the old job must go before the same job id can run again.
    if (state === 'completed' || state === 'failed') await this.queues.removeFinished(ref);
    const job = this.workflows.table.stepJob.parse(row.payload);
    // In the run's trace: the step it re-enqueues is a child of this span, so the trace shows the repair.
    await withProducerSpan(`reconcile ${row.node}`, job.trace, this.attributes(row), (trace) =>
      this.queues.enqueue({ ...job, ...(trace ? { trace } : {}) }),
    );
    await this.outbox.markSent([row.id]);
    return true;
  }
}
