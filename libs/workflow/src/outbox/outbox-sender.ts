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

  /** Returns how many were sent. A failure leaves the rest pending for the relay: the step is already safe. */
  async send(rows: readonly OutboxRowData[]): Promise<number> {
    const sent: bigint[] = [];
    try {
      for (const row of rows) {
        await this.queues.enqueue(this.workflows.table.stepJob.parse(row.payload));
        sent.push(row.id);
      }
    } catch (err) {
      this.logger.warn(
        { err: (err as Error).message, pending: rows.length - sent.length },
        'enqueue failed; the conductor will relay the rest',
      );
    }
    if (sent.length > 0) await this.outbox.markSent(sent);
    return sent.length;
  }

  /** Re-sends what a completed step decided, in case the worker died between its commit and its enqueue. */
  async sendPendingFrom(tenantId: string, causeKey: string): Promise<number> {
    return this.send(await this.outbox.pendingByCause(tenantId, causeKey));
  }
}
