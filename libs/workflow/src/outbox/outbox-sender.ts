import { Injectable } from '@nestjs/common';
import type { StepJob } from '@dossier/contracts';
import { OutboxRepository, type OutboxRowData } from '@dossier/db';
import { StepQueues } from '@dossier/queue';
import { createLogger } from '@dossier/telemetry';

/**
 * Enqueues committed outbox rows. Enqueue is idempotent (job id = step key), so the worker that committed, a
 * redelivered job and the conductor's relay may all send the same row safely.
 */
@Injectable()
export class OutboxSender {
  private readonly logger = createLogger('outbox');

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly queues: StepQueues,
  ) {}

  /**
   * Returns how many were sent. All rows go in one enqueue (one Redis round trip per queue), which checks every job
   * against the node table before any is sent (the one parse of an outgoing job). The rows are not marked sent here:
   * the step's start statement marks its own row when the job is delivered (docs/decisions/0071), and the relay marks
   * what it sends. A failure leaves them pending for the relay: the step is already safe, and enqueue is idempotent.
   */
  async send(rows: readonly OutboxRowData[]): Promise<number> {
    if (rows.length === 0) return 0;
    try {
      await this.queues.enqueueMany(rows.map((row) => row.payload as unknown as StepJob));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, pending: rows.length }, 'enqueue failed; the conductor will relay them');
      return 0;
    }
    return rows.length;
  }

  /** Re-sends what a completed step decided, in case the worker died between its commit and its enqueue. */
  async sendPendingFrom(tenantId: string, causeKey: string): Promise<number> {
    return this.send(await this.outbox.pendingByCause(tenantId, causeKey));
  }
}
