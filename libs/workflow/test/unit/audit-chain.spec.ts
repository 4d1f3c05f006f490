import { createHash } from 'node:crypto';
import { AuditEvent } from '@dossier/contracts';
import { auditHash, GENESIS_PREV_HASH, verifyAuditChain } from '../../src/audit/audit-chain';

const TENANT = '0b6a1f3e-2c4d-4e5f-8a9b-0c1d2e3f4a5b';
const RUN = '7d9e8f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a';

type Row = AuditEvent;

function withoutHash(row: Row): Omit<Row, 'hash'> {
  const copy: Partial<Row> = { ...row };
  delete copy.hash;
  return copy as Omit<Row, 'hash'>;
}

/** Builds a valid chain the way AuditLog.appendLocked does: seq from 0, prevHash = previous hash, hash = auditHash(row). */
function buildChain(n: number): Row[] {
  const rows: Row[] = [];
  for (let seq = 0; seq < n; seq++) {
    const unhashed = {
      tenantId: TENANT,
      runId: RUN,
      seq,
      kind: seq === 0 ? 'run_created' : `event_${seq}`,
      actor: seq % 2 === 0 ? 'system' : 'user:alice',
      payload: JSON.stringify({ n: seq, note: `row ${seq}` }),
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(),
      prevHash: rows[seq - 1]?.hash ?? GENESIS_PREV_HASH,
    };
    rows.push({ ...unhashed, hash: auditHash(unhashed) });
  }
  return rows;
}

/** Re-hashes rows from `from` on, as someone who rewrites history consistently would. */
function rehashFrom(rows: Row[], from: number): Row[] {
  const out = rows.map((r) => ({ ...r }));
  for (let i = from; i < out.length; i++) {
    const rest = withoutHash(out[i]!);
    const prevHash = i === 0 ? GENESIS_PREV_HASH : out[i - 1]!.hash;
    out[i] = { ...rest, prevHash, hash: auditHash({ ...rest, prevHash }) };
  }
  return out;
}

describe('auditHash', () => {
  it('is a 64-char hex sha256, and GENESIS_PREV_HASH is 64 zeros', () => {
    const [row] = buildChain(1);
    expect(row!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(GENESIS_PREV_HASH).toBe('0'.repeat(64));
  });

  it('is deterministic and ignores the stored hash field', () => {
    const [row] = buildChain(1);
    expect(auditHash(row!)).toBe(row!.hash);
    expect(auditHash({ ...row!, hash: 'whatever' } as Row)).toBe(row!.hash);
  });

  it('equals sha256 of the JSON array [prevHash, tenantId, runId, seq, kind, actor, createdAt, payload]', () => {
    const [row] = buildChain(1);
    const expected = createHash('sha256')
      .update(JSON.stringify([row!.prevHash, row!.tenantId, row!.runId, row!.seq, row!.kind, row!.actor, row!.createdAt, row!.payload]))
      .digest('hex');
    expect(row!.hash).toBe(expected);
  });

  it.each(['prevHash', 'runId', 'seq', 'kind', 'actor', 'createdAt', 'payload'] as const)('changes when %s changes', (field) => {
    const [row] = buildChain(1);
    const changed = { ...row!, [field]: field === 'seq' ? 1 : `${String(row![field])}x` } as Row;
    expect(auditHash(changed)).not.toBe(row!.hash);
  });
});

describe('verifyAuditChain', () => {
  it('accepts a valid chain, reporting its length', () => {
    const rows = buildChain(6);
    for (const row of rows) expect(AuditEvent.safeParse(row).success).toBe(true);
    expect(verifyAuditChain(rows)).toEqual({ ok: true, rows: 6 });
  });

  it('accepts a chain of only the genesis row', () => {
    expect(verifyAuditChain(buildChain(1))).toEqual({ ok: true, rows: 1 });
  });

  it('an empty chain has no genesis', () => {
    expect(verifyAuditChain([])).toEqual({ ok: false, rows: 0, firstBadSeq: 0, reason: 'no_genesis' });
  });

  it('a chain whose first row is not seq 0 has no genesis (names that row)', () => {
    const rows = buildChain(4).slice(1);
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 3, firstBadSeq: 1, reason: 'no_genesis' });
  });

  it.each([0, 1, 3, 5])('tampering the payload of row %i → firstBadSeq = that row, hash_mismatch', (k) => {
    const rows = buildChain(6);
    rows[k] = { ...rows[k]!, payload: JSON.stringify({ n: 999 }) };
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 6, firstBadSeq: k, reason: 'hash_mismatch' });
  });

  it.each(['kind', 'actor', 'createdAt'] as const)('tampering %s of a middle row → hash_mismatch at that row', (field) => {
    const rows = buildChain(5);
    rows[2] = { ...rows[2]!, [field]: `${rows[2]![field]}!` };
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 5, firstBadSeq: 2, reason: 'hash_mismatch' });
  });

  it('a tampered row whose own hash is recomputed breaks the next row (prev_hash_mismatch)', () => {
    const rows = buildChain(5);
    const rest = withoutHash(rows[2]!);
    const forged = { ...rest, payload: '{"forged":true}' };
    rows[2] = { ...forged, hash: auditHash(forged) };
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 5, firstBadSeq: 3, reason: 'prev_hash_mismatch' });
  });

  it.each([1, 2, 3])('deleting middle row %i → gap, naming the missing seq', (k) => {
    const rows = buildChain(5);
    rows.splice(k, 1);
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 4, firstBadSeq: k, reason: 'gap' });
  });

  it('deleting a middle row and renumbering the rest is caught by the hash chain', () => {
    const rows = buildChain(5);
    rows.splice(2, 1);
    const renumbered = rows.map((r, i) => ({ ...r, seq: i }));
    expect(verifyAuditChain(renumbered)).toEqual({ ok: false, rows: 4, firstBadSeq: 2, reason: 'prev_hash_mismatch' });
  });

  it('swapping two rows → gap at the first out-of-order position', () => {
    const rows = buildChain(5);
    [rows[1], rows[2]] = [rows[2]!, rows[1]!];
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 5, firstBadSeq: 1, reason: 'gap' });
  });

  it('a duplicated row → gap', () => {
    const rows = buildChain(4);
    rows.splice(2, 0, { ...rows[1]! });
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 5, firstBadSeq: 2, reason: 'gap' });
  });

  it.each([0, 2, 4])('changing prevHash of row %i → prev_hash_mismatch at that row', (k) => {
    const rows = buildChain(5);
    rows[k] = { ...rows[k]!, prevHash: 'f'.repeat(64) };
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 5, firstBadSeq: k, reason: 'prev_hash_mismatch' });
  });

  it('changing the stored hash of the last row → hash_mismatch at that row', () => {
    const rows = buildChain(4);
    rows[3] = { ...rows[3]!, hash: 'a'.repeat(64) };
    expect(verifyAuditChain(rows)).toEqual({ ok: false, rows: 4, firstBadSeq: 3, reason: 'hash_mismatch' });
  });

  it('a consistently re-hashed history still verifies (the chain is only as good as its anchor)', () => {
    // Documents the limit: without an external anchor a full rewrite from row k on is undetectable.
    const rows = buildChain(4);
    rows[2] = { ...rows[2]!, payload: '{"rewritten":true}' };
    expect(verifyAuditChain(rehashFrom(rows, 2))).toEqual({ ok: true, rows: 4 });
  });

  it('reports the first bad row when several are bad', () => {
    const rows = buildChain(6);
    rows[4] = { ...rows[4]!, payload: 'x' };
    rows[2] = { ...rows[2]!, payload: 'y' };
    expect(verifyAuditChain(rows)).toMatchObject({ ok: false, firstBadSeq: 2, reason: 'hash_mismatch' });
  });
});

/**
 * audit-chain.ts documents: "The hash covers the previous hash and the exact stored text of every field, so changing
 * any byte of a stored row ... breaks the chain from that row on." These tests hold the implementation to that promise.
 */
describe('auditHash: the "every byte of every field" guarantee', () => {
  it('moving a newline between kind and actor changes the hash (fields must be unambiguously delimited)', () => {
    // Field boundaries are part of the hash: ("a\nb", "c") and ("a", "b\nc") must differ.
    const [row] = buildChain(1);
    const a = { ...row!, kind: 'gate_decided', actor: 'user:alice\nadmin' };
    const b = { ...row!, kind: 'gate_decided\nuser:alice', actor: 'admin' };
    expect(AuditEvent.safeParse(a).success).toBe(true);
    expect(AuditEvent.safeParse(b).success).toBe(true);
    expect(auditHash(b)).not.toBe(auditHash(a));
  });

  it('a tampered row that keeps the concatenation is detected by verifyAuditChain', () => {
    const rows = buildChain(3);
    const rest = withoutHash(rows[1]!);
    const original = { ...rest, actor: 'user:alice\nsystem' };
    rows[1] = { ...original, hash: auditHash(original) };
    const valid = rehashFrom(rows, 1);
    expect(verifyAuditChain(valid)).toEqual({ ok: true, rows: 3 });
    // Shift the boundary: kind gains "\nuser:alice", actor loses it. Hash and prevHash left untouched.
    const tampered = valid.map((r) => ({ ...r }));
    tampered[1] = { ...tampered[1]!, kind: `${tampered[1]!.kind}\nuser:alice`, actor: 'system' };
    expect(verifyAuditChain(tampered)).toMatchObject({ ok: false, firstBadSeq: 1, reason: 'hash_mismatch' });
  });

  it('changing tenantId of a stored row changes its hash', () => {
    const [row] = buildChain(1);
    const moved = { ...row!, tenantId: '11111111-2222-4333-8444-555555555555' };
    expect(auditHash(moved)).not.toBe(auditHash(row!));
  });
});
