import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/**
 * The one `pg` pool of a process, shared by Prisma (through its pg adapter) and the step engine's own statements
 * (docs/decisions/0104). Inside `onConnection(client, fn)` every Prisma query of `fn`'s async scope runs on `client`,
 * in the transaction the engine holds there: the handler's writes, audit appends and approvals keep their Prisma
 * repositories, while the engine's hot statements go to the driver directly (Prisma costs several times the driver's
 * CPU per statement, 0104's profile).
 */
const bound = new AsyncLocalStorage<pg.PoolClient>();

/** The connection the current async scope is bound to (inside `onConnection`), if any. */
export function boundConnection(): pg.PoolClient | undefined {
  return bound.getStore();
}

/** Runs `fn` with every Prisma query of its scope on `client`. */
export function onConnection<T>(client: pg.PoolClient, fn: () => Promise<T>): Promise<T> {
  return bound.run(client, fn);
}

// int8 as BigInt, as Prisma's $queryRaw returns it (an outbox id is a bigint), for the engine's own statements; Prisma
// passes its own type parsers with each query, so this default does not change what Prisma reads.
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? (v: string) => BigInt(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

let nestedSeq = 0;

/**
 * What Prisma gets when it opens a transaction of its own (a nested write) inside a bound scope: the bound connection,
 * with its BEGIN, COMMIT and ROLLBACK turned into a savepoint, so the engine's transaction stays the only one.
 */
function nestedClient(conn: pg.PoolClient): pg.PoolClient {
  const savepoint = `prisma_nested_${++nestedSeq}`;
  const control: Record<string, string> = {
    BEGIN: `SAVEPOINT ${savepoint}`,
    COMMIT: `RELEASE SAVEPOINT ${savepoint}`,
    ROLLBACK: `ROLLBACK TO SAVEPOINT ${savepoint}`,
  };
  const nested = {
    query(config: string | pg.QueryConfig, values?: unknown[]) {
      const text = typeof config === 'string' ? config : config.text;
      const replaced = control[text.trim().toUpperCase()];
      if (replaced) return conn.query(replaced);
      return conn.query(config as pg.QueryConfig, values);
    },
    on: () => nested,
    removeListener: () => nested,
    // The engine releases the connection when its own transaction ends.
    release: () => undefined,
  };
  return nested as unknown as pg.PoolClient;
}

export class BindablePool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super({ ...config, types });
    // An idle connection that dies (Postgres restarted) is dropped by the pool and replaced on next use; without a
    // listener its 'error' event would crash the process before Prisma's adapter (which adds one) first connects.
    this.on('error', () => undefined);
  }

  // Overloads of pg's Pool: a promise without a callback is all Prisma's adapter and the engine use.
  override query(...args: unknown[]): never {
    const client = bound.getStore() as { query: (...a: unknown[]) => unknown } | undefined;
    if (client) return client.query(...args) as never;
    return (super.query as (...a: unknown[]) => unknown).call(this, ...args) as never;
  }

  /**
   * pg-pool's `end()` neither serves nor fails the callers queued for a connection: they waited forever. A step whose
   * statement was queued when an app closed (Nest ended this pool in `onModuleDestroy`, before the step transports drained
   * in `beforeApplicationShutdown`; since 0148 it ends last) never finished, and the worker draining it never closed: CI's shard 2 hung at
   * gateway roles.spec with a run's retrieve shards `running` and no connection (docs/decisions/0139). They fail now, as
   * a caller arriving after `end()` does.
   */
  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(...args: unknown[]): Promise<void> | void {
    const ended = (super.end as (...a: unknown[]) => Promise<void> | void).call(this, ...args);
    const queued = (this as unknown as { _pendingQueue: { callback: (err: Error) => void }[] })._pendingQueue.splice(0);
    for (const waiter of queued) waiter.callback(new Error('Cannot use a pool after calling end on the pool'));
    return ended;
  }

  override connect(...args: unknown[]): never {
    const client = bound.getStore();
    if (client && args.length === 0) return Promise.resolve(nestedClient(client)) as never;
    return (super.connect as (...a: unknown[]) => unknown).call(this, ...args) as never;
  }
}
