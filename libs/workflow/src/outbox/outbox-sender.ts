import { Inject, Injectable } from '@nestjs/common';
import { OutboxRepository, type OutboxRowData } from '@dossier/db';
import { StepQueues } from '@dossier/queue';
import { createLogger } from '@dossier/telemetry';
import type { WorkflowGraphs } from '../graph/workflow-graphs';
import { WORKFLOW_GRAPHS } from '../workflow-options';

/**
 * Enqueues committed outbox rows and marks them sent. Enqueue is idempotent (job id = step key), so the
 * worker that committed, a redelivered job and the conductor's relay may all send the same row safely.
 */
@Injectable()
export class OutboxSender {
  private readonly logger = createLogger('outbox');

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly queues: StepQueues,
    @Inject(WORKFLOW_GRAPHS) private readonly workflows: WorkflowGraphs,
  ) {}

  /**
   * Returns how many were sent. All rows go in one enqueue (one Redis round trip per queue) and one update marks
   * them sent. A failure leaves them pending for the relay: the step is already safe, and enqueue is idempotent.
   */
  async send(rows: readonly OutboxRowData[]): Promise<number> {
    if (rows.length === 0) return 0;
    try {
      await this.queues.enqueueMany(rows.map((row) => this.workflows.table.stepJob.parse(row.payload)));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, pending: rows.length }, 'enqueue failed; the conductor will relay them');
      return 0;
    }
    await this.outbox.markSent(rows.map((row) => row.id));
    return rows.length;
  }

  /** Re-sends what a completed step decided, in case the worker died between its commit and its enqueue. */
  async sendPendingFrom(tenantId: string, causeKey: string): Promise<number> {
    return this.send(await this.outbox.pendingByCause(tenantId, causeKey));
  }
}
