import type pg from 'pg';

/**
 * The engine's transaction on a connection in pg's pipeline mode (docs/decisions/0135): BEGIN is sent unawaited and
 * answered with the transaction's first statement; COMMIT can be sent right behind its last statement (`queryRows`'
 * `last`). Keyed by the checked-out connection for the span of `sqlTransaction`.
 */
export interface PipelinedTransaction {
  /** The BEGIN not yet awaited: the first statement sent on the connection awaits it with its own answer. */
  begin: Promise<unknown> | undefined;
  /** COMMIT went out behind the last statement and answered COMMIT. */
  committed: boolean;
  /** The transaction ended without a commit (COMMIT answered ROLLBACK or failed): nothing to roll back. */
  ended: boolean;
  /** COMMIT has been sent: a statement after it would run outside the transaction. */
  commitSent: boolean;
  /** The socket is corked behind BEGIN until the first statement is written with it (one write). */
  uncork: (() => void) | undefined;
}

type Corkable = { cork?: () => void; uncork?: () => void };
const streamOf = (client: pg.PoolClient) => (client as unknown as { connection?: { stream?: Corkable } }).connection?.stream;

/**
 * Holds the connection's socket writes until the returned function is called (once): statements queued meanwhile go
 * out in one write (Node's cork, nested under the one pg takes per statement).
 */
export function corkSocket(client: pg.PoolClient): () => void {
  const stream = streamOf(client);
  if (!stream?.cork || !stream.uncork) return () => undefined;
  stream.cork();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    stream.uncork?.();
  };
}

const open = new WeakMap<pg.PoolClient, PipelinedTransaction>();

export function openPipelined(client: pg.PoolClient, tx: PipelinedTransaction): void {
  open.set(client, tx);
}

export function closePipelined(client: pg.PoolClient): void {
  open.delete(client);
}

export function pipelinedTransaction(client: pg.PoolClient): PipelinedTransaction | undefined {
  return open.get(client);
}

/** pg 8.23's client flag, read on every pulse of its queue (`_pulseQueryQueue`); typed read-only by @types/pg. */
export function setPipeline(client: pg.PoolClient, on: boolean): void {
  (client as unknown as { pipeline: boolean }).pipeline = on;
}

/** No statement queued, in flight or awaiting its answer: the flag can be switched without stranding one. */
export function drained(client: pg.PoolClient): boolean {
  const c = client as unknown as { _activeQuery?: unknown; _sentQueryQueue?: unknown[]; _queryQueue?: unknown[] };
  return !c._activeQuery && (c._sentQueryQueue?.length ?? 0) === 0 && (c._queryQueue?.length ?? 0) === 0;
}

/**
 * Sends `config` on the engine's pipelined transaction `tx`: with the pending BEGIN awaited together with it, and with
 * COMMIT sent right behind it when `last`. Every answer is awaited (settled) before anything is thrown, so no answer
 * is left unhandled and the connection is drained. A failed statement aborts the transaction, so the COMMIT behind it
 * answers ROLLBACK: the statement's own error is thrown (classified as before) and the transaction is not committed.
 */
export async function queryPipelined(
  client: pg.PoolClient,
  tx: PipelinedTransaction,
  config: pg.QueryConfig,
  last: boolean,
): Promise<pg.QueryResult> {
  if (tx.commitSent) throw new Error('a statement after its transaction was committed');
  const begin = tx.begin;
  tx.begin = undefined;
  const uncork = last ? corkSocket(client) : () => undefined;
  const sent = client.query(config);
  let commit: Promise<pg.QueryResult> | undefined;
  if (last) {
    commit = client.query('COMMIT');
    tx.commitSent = true;
  }
  // One socket write: the statement with BEGIN (held since sqlTransaction sent it) or with COMMIT.
  uncork();
  tx.uncork?.();
  tx.uncork = undefined;
  const [b, s, c] = await Promise.allSettled([begin, sent, commit]);
  if (commit) {
    // The transaction is over either way: committed, or rolled back by Postgres (an aborted transaction's COMMIT).
    if (c.status === 'fulfilled' && c.value?.command === 'COMMIT' && b.status === 'fulfilled' && s.status === 'fulfilled') {
      tx.committed = true;
    } else {
      tx.ended = true;
    }
  }
  if (b.status === 'rejected') throw b.reason;
  if (s.status === 'rejected') throw s.reason;
  if (c.status === 'rejected') throw c.reason;
  if (commit && !tx.committed) throw new Error(`COMMIT answered ${c.value?.command ?? 'nothing'}: the transaction was rolled back`);
  return s.value;
}
