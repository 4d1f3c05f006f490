import { Client } from 'pg';

export interface WriteRace<T> {
  /** Every caller's outcome, in the order of `callers`. */
  results: PromiseSettledResult<T>[];
  /** True when every caller was waiting at the barrier at once: the race really took place. */
  overlapped: boolean;
}

const TABLE = /^[a-z_][a-z0-9_]*$/;

export interface RaceOptions {
  /**
   * Hold callers at their first read of the table instead (ACCESS EXCLUSIVE): for code that reads before it
   * opens a transaction, so the barrier never holds a transaction open (whose timeout would then decide).
   */
  atFirstRead?: boolean;
}

/**
 * Runs `callers` at once and makes them meet at their writes to `table`. A transaction of its own holds
 * `LOCK TABLE … IN SHARE MODE` (reads go on; INSERT, UPDATE and DELETE wait) until every caller's connection
 * is waiting for a lock, and only then commits. So each caller has done all its reads before any of them can
 * write: a read-then-insert fails every time, not once in a thousand runs, and atomic code has to cope with
 * all of them writing together. Nothing depends on timing: the release waits for that state, never for a
 * duration. Each caller must use a connection of its own (`separateClients`), as separate processes do.
 */
export async function raceAtWrites<T>(
  url: string,
  table: string,
  callers: readonly (() => Promise<T>)[],
  options: RaceOptions = {},
): Promise<WriteRace<T>> {
  if (!TABLE.test(table)) throw new Error(`raceAtWrites: not a table name: ${table}`);
  const blocker = new Client({ connectionString: url });
  const watcher = new Client({ connectionString: url });
  await blocker.connect();
  await watcher.connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query(`LOCK TABLE "${table}" IN ${options.atFirstRead ? 'ACCESS EXCLUSIVE' : 'SHARE'} MODE`);
  } catch (err) {
    await Promise.all([blocker.end(), watcher.end()]);
    throw err;
  }
  let settled = 0;
  const outcomes = callers.map((call) =>
    Promise.resolve()
      .then(call)
      .then(
        (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
      )
      .finally(() => settled++),
  );
  let overlapped = false;
  try {
    // Waiting for a table or row lock (the barrier itself, or a caller ahead holding a row lock), not for a
    // relation-extension lock, which any insert takes for a moment. A caller that finishes without ever
    // waiting ends the wait too: `overlapped` stays false and the test says so.
    while (settled === 0) {
      const { rows } = await watcher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
           AND wait_event_type = 'Lock' AND wait_event IN ('relation', 'transactionid', 'tuple')`,
      );
      if ((rows[0]?.n ?? 0) >= callers.length) {
        overlapped = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await blocker.query('COMMIT').catch(() => undefined);
    await Promise.all([blocker.end(), watcher.end()]);
  }
  return { results: await Promise.all(outcomes), overlapped };
}

/** What `separateClients` needs of a client: Prisma's, without depending on libs/db from here. */
export interface RacingClient {
  $queryRawUnsafe(query: string): Promise<unknown>;
  $disconnect(): Promise<void>;
}

/**
 * `n` clients made by `make`, each with a pool of its own and already connected (so connecting does not
 * spread the racers out): one per concurrent caller, as separate processes would have.
 */
export async function separateClients<C extends RacingClient>(
  n: number,
  make: () => C,
): Promise<{ clients: C[]; close: () => Promise<void> }> {
  const clients = Array.from({ length: n }, make);
  await Promise.all(clients.map((c) => c.$queryRawUnsafe('SELECT 1')));
  return { clients, close: () => Promise.all(clients.map((c) => c.$disconnect())).then(() => undefined) };
}

/** The values of a race whose callers must all succeed; throws the first failure (with its caller's index). */
export function allFulfilled<T>(race: WriteRace<T>): T[] {
  return race.results.map((r, i) => {
    if (r.status === 'rejected') throw new Error(`caller ${i} failed: ${describe(r.reason)}`, { cause: r.reason });
    return r.value;
  });
}

function describe(reason: unknown): string {
  if (!(reason instanceof Error)) return String(reason);
  const code = (reason as { code?: unknown }).code;
  const message = reason.message.trim().split('\n').filter(Boolean).pop() ?? '';
  return `${reason.name}${typeof code === 'string' ? ` ${code}` : ''}: ${message}`;
}
