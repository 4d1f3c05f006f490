import { createHash } from 'node:crypto';
import type { AuditEvent } from '@dossier/contracts';

export const GENESIS_PREV_HASH = '0'.repeat(64);

type Hashed = Omit<AuditEvent, 'hash'>;

/**
 * The hash covers the previous hash and the exact stored text of every field, so changing any byte of a
 * stored row, or removing or reordering rows, breaks the chain from that row on. The fields are hashed
 * as a JSON array, so no field boundary can move (a newline moved from `kind` into `actor` changes it).
 */
export function auditHash(row: Hashed): string {
  const fields = [row.prevHash, row.tenantId, row.runId, row.seq, row.kind, row.actor, row.createdAt, row.payload];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
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
