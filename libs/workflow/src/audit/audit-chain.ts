import { createHash } from 'node:crypto';
import type { AuditEvent } from '@dossier/contracts';

export const GENESIS_PREV_HASH = '0'.repeat(64);

type Hashed = Omit<AuditEvent, 'hash'>;

/**
 * The hash covers the previous hash and the exact stored text of every field, so changing any byte of a
 * stored row, or removing or reordering rows, breaks the chain from that row on.
 */
export function auditHash(row: Hashed): string {
  return createHash('sha256')
    .update([row.prevHash, row.runId, String(row.seq), row.kind, row.actor, row.createdAt, row.payload].join('\n'))
    .digest('hex');
}

export type AuditVerification =
  | { ok: true; rows: number }
  | { ok: false; rows: number; firstBadSeq: number; reason: 'gap' | 'prev_hash_mismatch' | 'hash_mismatch' | 'no_genesis' };

/** Walks a run's rows in sequence order and names the first row that does not verify. */
export function verifyAuditChain(rows: readonly AuditEvent[]): AuditVerification {
  let prevHash = GENESIS_PREV_HASH;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.seq !== i) return { ok: false, rows: rows.length, firstBadSeq: i === 0 ? row.seq : i, reason: i === 0 ? 'no_genesis' : 'gap' };
    if (row.prevHash !== prevHash) return { ok: false, rows: rows.length, firstBadSeq: row.seq, reason: 'prev_hash_mismatch' };
    if (auditHash(row) !== row.hash) return { ok: false, rows: rows.length, firstBadSeq: row.seq, reason: 'hash_mismatch' };
    prevHash = row.hash;
  }
  if (rows.length === 0) return { ok: false, rows: 0, firstBadSeq: 0, reason: 'no_genesis' };
  return { ok: true, rows: rows.length };
}
