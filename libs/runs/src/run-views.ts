import { ApprovalStatus, GateName, type ApprovalView } from '@dossier/contracts';
import type { ApprovalRow, RunRow } from '@dossier/db';
import { ValidationError } from '@dossier/errors';

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
