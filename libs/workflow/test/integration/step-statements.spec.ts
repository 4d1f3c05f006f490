import pg from 'pg';
import { currentLogContext } from '@dossier/telemetry';
import { sql, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, waitForStatus } from '../fixtures/run-queries';

/**
 * The SQL statements a step sends to Postgres, counted at the driver (every `pg` query of this process, BEGIN and
 * COMMIT included) and attributed to a step by the log context its delivery runs in (docs/decisions/0071). A count,
 * not a time: each statement is one round trip, and a statement added to the step path fails this test.
 */
describe('statements per step (real Redis and Postgres, engine in this process)', () => {
  let db: TestDatabase;
  let engine: TestEngine | undefined;
  const perStep = new Map<string, string[]>();
  /** The columns each statement of a step returned, in order (what the driver parses per row). */
  const columnsPerStep = new Map<string, string[][]>();
  /**
   * For each statement of a step, how many statements of the same connection were still unanswered when it was sent:
   * 0 starts a round trip, more rides on one already on the wire (pg's pipeline mode, docs/decisions/0135).
   */
  const inFlightPerStep = new Map<string, number[]>();
  const unanswered = new WeakMap<object, number>();
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    db = await prepareDatabase();
    process.env['TEST_SCRIPT'] = JSON.stringify({ queries: 3, sources: 2, sections: 2, gains: [0.9, 0.8], failing: [0] });
    // Counted where every Prisma query and transaction statement leaves the process: the pg client the adapter uses.
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const key = currentLogContext().stepKey;
      const first = args[0] as string | { text?: string };
      const text = typeof first === 'string' ? first : (first.text ?? '');
      if (key) perStep.set(key, [...(perStep.get(key) ?? []), text.replace(/\s+/g, ' ').trim()]);
      if (!key) return (query as (...a: unknown[]) => unknown).apply(this, args);
      const columns: string[] = [];
      columnsPerStep.set(key, [...(columnsPerStep.get(key) ?? []), columns]);
      inFlightPerStep.set(key, [...(inFlightPerStep.get(key) ?? []), unanswered.get(this) ?? 0]);
      unanswered.set(this, (unanswered.get(this) ?? 0) + 1);
      const answered = () => unanswered.set(this, (unanswered.get(this) ?? 1) - 1);
      const record = (r: unknown) => {
        answered();
        columns.push(...((r as { fields?: { name: string }[] } | undefined)?.fields ?? []).map((f) => f.name));
      };
      // The pool's own queries (outside a transaction) pass a callback; a checked-out client's return a promise.
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (err: unknown, r: unknown) => {
          if (!err) record(r);
          else answered();
          return (callback as (e: unknown, r: unknown) => unknown)(err, r);
        };
      }
      const sent = (query as (...a: unknown[]) => unknown).apply(this, args) as PromiseLike<unknown> | undefined;
      // Duck-typed (the driver's promise is not of this test's realm); a side chain: the caller awaits `sent` itself.
      if (typeof sent?.then === 'function') sent.then(record, answered);
      return sent;
    } as typeof query;
    engine = await startEngine(db, uniquePrefix('statements'));
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await engine?.close();
    await db?.drop();
  });

  it('a step sends five statements of its own: the start, and a transaction of BEGIN, two statements and COMMIT', async () => {
    const run = await engine!.commands.start({
      tenantId: TENANT,
      question: 'How many statements?',
      options: { maxIterations: 2 },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'completed');
    const steps = (await completedSteps(db.url, run.id)).map((k) => k.slice(run.id.length + 1));
    const sent = (step: string) => perStep.get(`${run.id}.${step}`) ?? [];
    // The whole table, for docs/decisions/0071 and for whoever breaks this test.
    console.log(steps.map((k) => `${k}\t${sent(k).length}`).join('\n'));

    // Every step here writes one test_outputs row in its transaction (the handler's own statement): 5 + 1. The run lock,
    // the completion and the router's read are one statement (docs/decisions/0121; two before).
    const ENGINE = 5;
    const expected = (step: string): number => {
      // The first step of a run this process sees reads the run once, to decide whether it may run it (0075, 0076).
      if (step === 'scope.0.0') return ENGINE + 1 + 1;
      // The step that stops research appends to the audit chain (lock, last row, insert) and reads pending interventions.
      if (step === 'moderate.1.0') return ENGINE + 1 + 4;
      // The step that completes the run appends run_completed to the audit chain.
      if (step === 'render.0.0') return ENGINE + 1 + 3;
      return ENGINE + 1;
    };
    // A mismatch names the step's statements (their first words): once under load (CI-like, load 12) retrieve.0.0 showed 9,
    // and which three were extra could not be told from the count alone.
    const opening = (q: string) => q.split(' ').slice(0, 6).join(' ');
    expect(
      steps.filter((k) => sent(k).length !== expected(k)).map((k) => `${k}: ${sent(k).length} [${sent(k).map(opening).join(' | ')}]`),
    ).toEqual([]);
    // Fan-out shards and their join included (the last retrieve shard to complete decides source_policy).
    expect(steps.filter((k) => k.startsWith('retrieve.0.'))).toHaveLength(3);

    // An ordinary step's statements, in order: nothing after COMMIT (the next jobs are enqueued, no "mark sent").
    const shape = sent('questions.0.0').map((q) =>
      q.startsWith('WITH run AS (')
        ? 'start'
        : q.startsWith('WITH run AS MATERIALIZED')
          ? 'lock, complete and read'
          : q.split(' ').slice(0, 3).join(' '),
    );
    expect(shape).toEqual(['start', 'BEGIN', 'lock, complete and read', 'INSERT INTO test_outputs', 'WITH counter AS', 'COMMIT']);
    // Three round trips, not six (docs/decisions/0135, 0140): the locking statement is sent with BEGIN still unanswered,
    // the handler's write behind both (Postgres runs it after the lock; a fenced attempt rolls it back), and COMMIT
    // with the transition; the transition waits for the router, which reads the lock's answer.
    expect(inFlightPerStep.get(`${run.id}.questions.0.0`)).toEqual([0, 0, 1, 2, 0, 1]);
    const roundTrips = (step: string) => (inFlightPerStep.get(`${run.id}.${step}`) ?? []).filter((n) => n === 0).length;
    // Every test handler writes its row: BEGIN, the handler's write and COMMIT ride on statements already sent.
    expect(steps.filter((k) => roundTrips(k) !== sent(k).length - 3).map((k) => `${k}: ${roundTrips(k)} of ${sent(k).length}`)).toEqual([]);
    // The run is read once per step (docs/decisions/0133): the start returns what the step reads of it, and the locking
    // statement only what can have changed since (state the router and the transition read), not the whole row again.
    const [started, , locked] = columnsPerStep.get(`${run.id}.questions.0.0`) ?? [];
    expect(started).toEqual(
      expect.arrayContaining(['id', 'tenantId', 'question', 'status', 'options', 'workflowVersion', 'createdAt', 'queueAt', 'stepAttempt']),
    );
    expect(started?.filter((c) => ['updatedAt', 'completedAt', 'eventSeq', 'idempotencyKey', 'requestHash'].includes(c))).toEqual([]);
    expect([...(locked ?? [])].sort()).toEqual(
      ['budgetExhausted', 'completedNow', 'decided', 'done', 'expected', 'hostedBy', 'latest', 'perShard', 'status'].sort(),
    );
    // Each decided step's outbox row was marked sent by its own start statement: none is left pending.
    const pending = await sql<{ step_key: string }>(db.url, "SELECT step_key FROM outbox WHERE run_id = $1 AND status <> 'sent'", [run.id]);
    expect(pending).toEqual([]);
  });

  it('a shard loop turn takes the same five, and the interviews join once, after the last shard closed', async () => {
    // Two analysts (perspectives: 2): the first closes its interview at turn 0, the second at turn 2.
    process.env['TEST_SCRIPT'] = JSON.stringify({ closeAt: [0, 2] });
    const run = await engine!.commands.start({
      tenantId: TENANT,
      question: 'How many statements in an interview?',
      options: { mode: 'interviews', interviewTurns: 3 },
      actor: 'test',
    });
    await waitForStatus(db.url, run.id, 'completed');
    const steps = (await completedSteps(db.url, run.id)).map((k) => k.slice(run.id.length + 1));
    const sent = (step: string) => perStep.get(`${run.id}.${step}`) ?? [];
    console.log(steps.map((k) => `${k}\t${sent(k).length}`).join('\n'));
    const turns = steps.filter((k) => k.startsWith('interview.'));
    expect(turns.sort()).toEqual(['interview.0.0', 'interview.0.1', 'interview.1.1', 'interview.2.1']);
    expect(turns.map((k) => sent(k).length)).toEqual([6, 6, 6, 6]);
    const outline = await sql<{ step_key: string }>(db.url, "SELECT step_key FROM outbox WHERE run_id = $1 AND node = 'outline'", [run.id]);
    expect(outline).toHaveLength(1);
  });
});
