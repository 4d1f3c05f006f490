import { createHash } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client';
import type { Db } from '../db';
import { boundConnection, type BindablePool } from './bindable-pool';
import { pipelinedTransaction, queryPipelined } from './pipelined-transaction';

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
 * A raw statement's rows, sent on the driver where the engine holds the connection (docs/decisions/0104): the
 * transaction's connection inside a step's transaction, the pool for the client outside one; through Prisma's
 * `$queryRaw` when `db` is one of Prisma's own transactions (run start, gate decisions). The same SQL text and values
 * either way (`Prisma.sql` renders `$n` placeholders for Postgres); int8 reads as BigInt on both paths. `last`: the
 * statement is the last of the step transaction it is in, and COMMIT may be sent right behind it (it is the caller's
 * promise that no statement follows; one that does is refused).
 */
export async function queryRows<T>(db: Db, query: Prisma.Sql, options: { last?: boolean } = {}): Promise<T[]> {
  const bound = boundConnection();
  const conn = bound ?? pooled.get(db);
  if (!conn) return db.$queryRaw<T[]>(query);
  const text = query.text;
  const config = { name: statementName(text), text, values: query.values as unknown[] };
  // In the engine's step transaction (pg's pipeline mode, docs/decisions/0135): the first statement carries the
  // pending BEGIN, and the last (`last`) has COMMIT sent right behind it.
  const tx = bound ? pipelinedTransaction(bound) : undefined;
  const result = bound && tx ? await queryPipelined(bound, tx, config, options.last ?? false) : await conn.query(config);
  return result.rows as T[];
}

/**
 * A prepared statement's name per SQL text: Postgres parses and plans each of the engine's statements once per
 * connection instead of on every step. The callers' texts vary only with their shape (which columns a transition sets,
 * a step's kind), never with values, so there are a few dozen names per connection.
 */
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `dossier_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}
