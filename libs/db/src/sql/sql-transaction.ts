import type pg from 'pg';
import { onConnection, type BindablePool } from './bindable-pool';

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
    client.release(expired('step transaction expired', options.timeoutMs));
  }, options.timeoutMs);
  try {
    await client.query('BEGIN');
    const result = await onConnection(client, fn);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    if (destroyed) throw expired('step transaction expired', options.timeoutMs);
    await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
      broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
    });
    throw err;
  } finally {
    clearTimeout(timer);
    client.removeListener('error', onError);
    if (!destroyed) client.release(broken);
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
