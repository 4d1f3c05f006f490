import { ApprovalStatus, GateName, RunStatus, type ApprovalView, type RunView } from '@dossier/contracts';
import type { ApprovalRow, RunRow } from '@dossier/db';
import { redactSecrets, ValidationError } from '@dossier/errors';

/** A run's own columns as clients see them; the gateway's run views add `usage` (and `progress`) from other tables. */
export type RunColumnsView = Omit<RunView, 'usage' | 'progress'>;

/** A run as clients see it (the gateway's JSON and the CLI print the same fields). */
export function runView(row: RunRow): RunColumnsView {
  return {
    id: row.id,
    question: row.question,
    status: RunStatus.parse(row.status),
    options: row.options as Record<string, unknown>,
    currentNode: row.currentNode,
    awaitingGate: row.awaitingGate,
    budgetExhausted: row.budgetExhausted,
    stopReason: row.stopReason,
    // Redacted again on the way out: rows written before secrets were redacted at the source may still hold one.
    failureReason: row.failureReason === null ? null : redactSecrets(row.failureReason),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** An approval row with what its gate asks to approve (`subject`: only while it is open). */
export function approvalView(r: ApprovalRow, subject: ApprovalView['subject']): ApprovalView {
  return {
    id: r.id,
    runId: r.runId,
    gate: GateName.parse(r.gate),
    revision: r.revision,
    status: ApprovalStatus.parse(r.status),
    feedback: r.feedback,
    decidedBy: r.decidedBy,
    openedAt: r.openedAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    subject: r.status === 'open' ? subject : null,
  };
}

/** Keyset cursor over (created_at, id), opaque to clients. */
export function encodeRunCursor(row: RunRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, 'utf8').toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeRunCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !UUID.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new ValidationError('Invalid cursor: pass the nextCursor of the previous page unchanged', {
      details: { part: 'query', issues: [{ path: 'cursor', message: 'invalid cursor' }] },
    });
  }
  return { createdAt, id };
}
