import { createHash } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client';
import type { Db } from '../db';
import { boundConnection, type BindablePool } from './bindable-pool';
import { corkSocket, pipelinedTransaction, queryPipelined } from './pipelined-transaction';

/**
 * The clients whose statements may go to their pool directly: the process's PrismaService, by identity. Not "has a
 * `pool` property": a Prisma transaction client forwards unknown properties to its client, and a statement of a
 * transaction sent on the pool would run outside it (and wait on the locks the transaction holds).
 */
const pooled = new WeakMap<object, BindablePool>();

/** Lets `queryRows` send `client`'s statements outside a transaction on `pool` (called by PrismaService). */
export function registerPooledClient(client: object, pool: BindablePool): void {
  pooled.set(client, pool);
}

/**
 * A statement whose SQL text is built once (a module constant, `$n` placeholders written in it): per call only its
 * values change, so nothing renders or hashes the text on a step (docs/decisions/0140). `name` is its prepared
 * statement's name: Postgres parses and plans it once per connection.
 */
export interface FixedStatement {
  readonly name: string;
  readonly text: string;
}

/** A fixed statement with this call's values (`$1` is `values[0]`). */
export interface BoundStatement {
  readonly fixed: FixedStatement;
  readonly values: readonly unknown[];
}

/**
 * A raw statement's rows, sent on the driver where the engine holds the connection (docs/decisions/0104): the
 * transaction's connection inside a step's transaction, the pool for the client outside one; through Prisma's
 * `$queryRaw` when `db` is one of Prisma's own transactions (run start, gate decisions). The same SQL text and values
 * either way (`Prisma.sql` renders `$n` placeholders for Postgres, a fixed statement has them written); int8 reads as
 * BigInt on both paths. `last`: the statement is the last of the step transaction it is in, and COMMIT may be sent
 * right behind it (it is the caller's promise that no statement follows; one that does is refused).
 */
export async function queryRows<T>(db: Db, query: Prisma.Sql | BoundStatement, options: { last?: boolean } = {}): Promise<T[]> {
  const bound = boundConnection();
  const conn = bound ?? pooled.get(db);
  const fixed = 'fixed' in query ? query : undefined;
  if (!conn) {
    return fixed ? db.$queryRawUnsafe<T[]>(fixed.fixed.text, ...fixed.values) : db.$queryRaw<T[]>(query as Prisma.Sql);
  }
  // pg copies a query's config through its property descriptors (`cloneQueryConfig`): name and text come from the
  // statement's own object as the prototype, so only `values` is copied per call.
  const config = Object.create(fixed ? fixed.fixed : fixedStatement((query as Prisma.Sql).text)) as { values: unknown[] };
  config.values = (fixed ? fixed.values : (query as Prisma.Sql).values) as unknown[];
  // In the engine's step transaction (pg's pipeline mode, docs/decisions/0135): the first statement carries the
  // pending BEGIN, and the last (`last`) has COMMIT sent right behind it.
  const tx = bound ? pipelinedTransaction(bound) : undefined;
  const pgConfig = config as unknown as { name: string; text: string; values: unknown[] };
  const result = bound && tx ? await queryPipelined(bound, tx, pgConfig, options.last ?? false) : await conn.query(pgConfig);
  return result.rows as T[];
}

/**
 * A prepared statement's name per SQL text: Postgres parses and plans each of the engine's statements once per
 * connection instead of on every step. The callers' texts vary only with their shape (which columns a transition sets,
 * a step's kind), never with values, so there are a few dozen names per connection.
 */
const bases = new Map<string, FixedStatement>();
export function fixedStatement(text: string): FixedStatement {
  let base = bases.get(text);
  if (!base) {
    base = Object.freeze({ name: `dossier_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text });
    bases.set(text, base);
  }
  return base;
}

/**
 * Holds the socket writes of the step transaction's connection (if the scope is bound to one) until the next turn of
 * the event loop (`setImmediate`): statements queued meanwhile go out in one write with those already held (BEGIN and
 * the locking statement, docs/decisions/0140). A no-op outside a bound scope.
 */
export function holdWritesThisTurn(): void {
  const bound = boundConnection();
  if (!bound) return;
  setImmediate(corkSocket(bound));
}
