import type pg from 'pg';
import { onConnection, type BindablePool } from './bindable-pool';
import { closePipelined, corkSocket, drained, openPipelined, setPipeline, type PipelinedTransaction } from './pipelined-transaction';

export interface SqlTransactionOptions {
  /** How long to wait for a connection, and how long the transaction may last, as Prisma's maxWait and timeout. */
  timeoutMs: number;
}

/** Prisma's code for an expired interactive transaction: classified transient (retried) as before (docs/decisions/0104). */
function expired(what: string, ms: number): Error {
  return Object.assign(new Error(`${what} after ${ms} ms`), { code: 'P2028' });
}

/**
 * One transaction on a connection of the pool, with every Prisma query of `fn`'s scope on it (`onConnection`): BEGIN
 * and COMMIT are two statements of the driver's instead of Prisma's interactive-transaction machinery. Rolled back when
 * `fn` throws. Past `timeoutMs` the connection is destroyed (Postgres rolls the transaction back and drops its locks)
 * and the caller gets a transient error; a late connection is released unused.
 */
export async function sqlTransaction<T>(pool: BindablePool, fn: () => Promise<T>, options: SqlTransactionOptions): Promise<T> {
  const client = await withTimeout(pool.connect(), options.timeoutMs, (late) => late.release(), 'waited for a database connection');
  let destroyed = false;
  // A connection whose ROLLBACK failed, or that died under the transaction, is broken: it leaves the pool instead of
  // going back to it.
  let broken: Error | undefined;
  // A checked-out pg client reports a dying connection (Postgres restarted, a network cut) as an 'error' event, which
  // with no listener crashes the process (the chaos soak's Postgres stop did); the query in flight fails as well, so the
  // event needs only recording.
  const onError = (err: Error) => {
    broken = err;
  };
  client.on('error', onError);
  const timer = setTimeout(() => {
    destroyed = true;
    // Out of pipeline mode first: pg's end() waits for the pipelined statements in flight to drain (a statement waiting
    // on a lock would keep the connection and the locks), where without it a busy connection's socket is destroyed.
    setPipeline(client, false);
    client.release(expired('step transaction expired', options.timeoutMs));
  }, options.timeoutMs);
  // pg's pipeline mode for the span of the transaction (docs/decisions/0135): each statement is sent as it is queued,
  // with its own Sync, so BEGIN goes out unawaited and is answered with the first statement (`queryRows` awaits both),
  // and COMMIT can go right behind the last statement (`queryRows`' `last`). A failed statement still aborts the
  // transaction: the statements behind it fail, and a COMMIT answers ROLLBACK.
  setPipeline(client, true);
  // BEGIN is held in the socket until the first statement joins it (one write), at the latest to the next tick.
  const uncork = corkSocket(client);
  const tx: PipelinedTransaction = { begin: client.query('BEGIN'), committed: false, ended: false, commitSent: false, uncork };
  process.nextTick(uncork);
  // Awaited with the first statement, or below when `fn` sent none through `queryRows`.
  tx.begin?.catch(() => undefined);
  openPipelined(client, tx);
  try {
    const result = await onConnection(client, fn);
    if (tx.begin) {
      const begin = tx.begin;
      tx.begin = undefined;
      await begin;
    }
    if (!tx.committed) {
      if (tx.commitSent) throw new Error('the transaction was not committed');
      tx.commitSent = true;
      const commit = await client.query('COMMIT');
      // An aborted transaction (a statement of `fn` failed and `fn` went on) answers COMMIT with ROLLBACK.
      if (commit.command !== 'COMMIT') {
        tx.ended = true;
        throw new Error(`COMMIT answered ${commit.command}: the transaction was rolled back`);
      }
    }
    return result;
  } catch (err) {
    if (destroyed) throw expired('step transaction expired', options.timeoutMs);
    // Committed already (COMMIT went with the last statement) or ended by Postgres: nothing to roll back.
    if (!tx.committed && !tx.ended) {
      await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
        broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
      });
    }
    throw err;
  } finally {
    closePipelined(client);
    clearTimeout(timer);
    client.removeListener('error', onError);
    if (!destroyed) {
      // Back to the pool out of pipeline mode, and only with nothing in flight: switching the flag with a statement
      // unanswered would strand it, so such a connection leaves the pool instead.
      if (!drained(client)) broken ??= new Error('statements still in flight at the end of the transaction');
      setPipeline(client, false);
      client.release(broken);
    }
  }
}

function withTimeout(
  connecting: Promise<pg.PoolClient>,
  ms: number,
  onLate: (client: pg.PoolClient) => void,
  what: string,
): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(expired(what, ms));
    }, ms);
    connecting.then(
      (client) => {
        clearTimeout(timer);
        if (timedOut) onLate(client);
        else resolve(client);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
