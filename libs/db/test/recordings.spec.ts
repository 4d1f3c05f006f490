import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ReplayAnswerMissingError, ReplayedFailureError } from '@dossier/errors';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { createPrismaClient, recorded, RecordingRepository, withRecordingScope, type RecordedCall, type RecordingScope } from '../src';

/** The recording store at the boundaries (decision 0030), against real Postgres. */
describe('recordings: record, replay, search cache, retention', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  const repo = new RecordingRepository();
  const Hits = z.array(z.string());
  const search = (query: string): RecordedCall => ({
    kind: 'search',
    request: { provider: 'tavily', query },
    name: `tavily search "${query}"`,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient({ url: db.url, poolMax: 4 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function tenant(policy: object = {}): Promise<string> {
    return (await prisma.tenant.create({ data: { name: `t-${randomUUID()}`, policy } })).id;
  }

  function scope(tenantId: string, runId: string, step: string, extra: Partial<RecordingScope> = {}): RecordingScope {
    return { db: prisma, tenantId, runId, step, node: step.split('.')[0]!, freshSearch: false, ...extra };
  }

  /** A live call that counts how often it is made. */
  const liveSearch = (answer: string[]) => jest.fn(async () => answer);

  it('records a live answer against the step; outside a step nothing is recorded', async () => {
    const t = await tenant();
    const run = randomUUID();
    const live = liveSearch(['a', 'b']);
    expect(await withRecordingScope(scope(t, run, 'retrieve.0.1'), () => recorded(search('lake'), Hits, live))).toEqual(['a', 'b']);
    expect(await recorded(search('lake'), Hits, live)).toEqual(['a', 'b']);
    expect(live).toHaveBeenCalledTimes(2);
    const rows = await prisma.runRecording.findMany({ where: { tenantId: t } });
    expect(rows.map((r) => [r.runId, r.step, r.kind, r.call])).toEqual([[run, 'retrieve.0.1', 'search', 'tavily search "lake"']]);
    expect((await repo.size(prisma, t, run)).calls).toBe(1);
  });

  it('a replay answers from the recording without the live call, names a missing call, and fails a recorded failure again', async () => {
    const t = await tenant();
    const original = randomUUID();
    await withRecordingScope(scope(t, original, 'retrieve.0.0'), () => recorded(search('levels'), Hits, liveSearch(['x'])));
    await withRecordingScope(scope(t, original, 'retrieve.0.1'), () =>
      recorded(search('dam'), Hits, async () => {
        throw new Error('503 from the provider');
      }),
    ).catch(() => undefined);

    const replay = randomUUID();
    const asReplay = (step: string) => scope(t, replay, step, { replay: { of: original } });
    const never = jest.fn(async (): Promise<string[]> => ['live']);
    expect(await withRecordingScope(asReplay('retrieve.0.0'), () => recorded(search('levels'), Hits, never))).toEqual(['x']);
    // Same request in another step: not this step's answer.
    const missing = await withRecordingScope(asReplay('retrieve.0.2'), () => recorded(search('levels'), Hits, never)).catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(ReplayAnswerMissingError);
    expect((missing as Error).message).toContain(
      `The recording of run ${original} has no answer for search call tavily search "levels" in step retrieve.0.2`,
    );
    const failed = await withRecordingScope(asReplay('retrieve.0.1'), () => recorded(search('dam'), Hits, never)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ReplayedFailureError);
    expect((failed as Error).message).toContain('tavily search "dam" failed when run');
    expect((failed as Error).message).toContain('503 from the provider');
    expect(never).not.toHaveBeenCalled();
    // What the replay consumed is its own recording too.
    expect((await prisma.runRecording.findMany({ where: { runId: replay } })).map((r) => r.step).sort()).toEqual([
      'retrieve.0.0',
      'retrieve.0.1',
    ]);
  });

  it('the attempt that completed wins: a step that ran again records its later answer', async () => {
    const t = await tenant();
    const run = randomUUID();
    await withRecordingScope(scope(t, run, 'retrieve.0.0'), () => recorded(search('q'), Hits, liveSearch(['first'])));
    await withRecordingScope(scope(t, run, 'retrieve.0.0'), () => recorded(search('q'), Hits, liveSearch(['second'])));
    const replay = scope(t, randomUUID(), 'retrieve.0.0', { replay: { of: run } });
    expect(await withRecordingScope(replay, () => recorded(search('q'), Hits, liveSearch(['live'])))).toEqual(['second']);
  });

  it('the calls a step makes at once are linked in one statement, each with its own answer; a call asked twice keeps the last', async () => {
    const t = await tenant();
    const run = randomUUID();
    // Every statement the store sends through this client (outside a pool, raw statements go through Prisma).
    const raw = jest.spyOn(prisma, '$queryRawUnsafe');
    const answers = await withRecordingScope(scope(t, run, 'retrieve.0.2'), () =>
      Promise.all([
        recorded(search('one'), Hits, liveSearch(['1'])),
        recorded(search('two'), Hits, liveSearch(['2'])),
        recorded(search('three'), Hits, liveSearch(['1'])),
        recorded(search('one'), Hits, liveSearch(['1 again'])),
      ]),
    );
    const linkStatements = raw.mock.calls.filter(([text]) => text.includes('INSERT INTO run_recordings')).length;
    raw.mockRestore();
    expect(answers).toEqual([['1'], ['2'], ['1'], ['1 again']]);
    expect(linkStatements).toBe(1);
    const calls = await prisma.runRecording.findMany({ where: { runId: run }, orderBy: { call: 'asc' } });
    const stored = new Map((await prisma.recordedAnswer.findMany({ where: { tenantId: t } })).map((a) => [a.hash, a.body]));
    expect(calls.map((c) => [c.step, c.call, stored.get(c.answerHash)])).toEqual([
      ['retrieve.0.2', 'tavily search "one"', ['1 again']],
      ['retrieve.0.2', 'tavily search "three"', ['1']],
      ['retrieve.0.2', 'tavily search "two"', ['2']],
    ]);
    // '1' is one answer row, named by two calls' links (one of them replaced since).
    expect(stored.size).toBe(3);
    const replay = scope(t, randomUUID(), 'retrieve.0.2', { replay: { of: run } });
    expect(await withRecordingScope(replay, () => recorded(search('one'), Hits, liveSearch(['live'])))).toEqual(['1 again']);
  });

  it("steps recording at once keep their own links; a batch that cannot be written fails each of its calls, not another step's", async () => {
    const t = await tenant();
    const [a, b] = [randomUUID(), randomUUID()];
    await Promise.all([
      withRecordingScope(scope(t, a, 'retrieve.0.0'), () => recorded(search('same'), Hits, liveSearch(['from a']))),
      withRecordingScope(scope(t, b, 'retrieve.0.1'), () => recorded(search('same'), Hits, liveSearch(['from b']))),
    ]);
    const rows = await prisma.runRecording.findMany({ where: { tenantId: t }, orderBy: { step: 'asc' } });
    expect(rows.map((r) => [r.runId, r.step])).toEqual([
      [a, 'retrieve.0.0'],
      [b, 'retrieve.0.1'],
    ]);
    expect(new Set(rows.map((r) => r.answerHash)).size).toBe(2);
    // A step whose run id is not a uuid cannot be stored: both of its calls fail, the other step's call is recorded.
    const broken = scope(t, 'not-a-run-id', 'retrieve.0.4');
    const results = await Promise.allSettled([
      withRecordingScope(broken, () => recorded(search('x'), Hits, liveSearch(['x']))),
      withRecordingScope(broken, () => recorded(search('y'), Hits, liveSearch(['y']))),
      withRecordingScope(scope(t, a, 'retrieve.0.5'), () => recorded(search('z'), Hits, liveSearch(['z']))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(await prisma.runRecording.count({ where: { runId: a, step: 'retrieve.0.5' } })).toBe(1);
  });

  it('replay --from: steps before the node replay, its first step and every later one go live', async () => {
    const t = await tenant();
    const original = randomUUID();
    for (const step of ['outline.0.0', 'draft.0.0', 'verify.0.0']) {
      await withRecordingScope(scope(t, original, step), () => recorded(search(step), Hits, liveSearch([`old ${step}`])));
    }
    const replay = randomUUID();
    const from = (step: string) => scope(t, replay, step, { replay: { of: original, from: 'draft' } });
    expect(await withRecordingScope(from('outline.0.0'), () => recorded(search('outline.0.0'), Hits, liveSearch(['new'])))).toEqual([
      'old outline.0.0',
    ]);
    expect(await withRecordingScope(from('draft.0.0'), () => recorded(search('draft.0.0'), Hits, liveSearch(['new draft'])))).toEqual([
      'new draft',
    ]);
    // verify runs after a draft step started in this run: live.
    await prisma.nodeExecution.create({
      data: { stepKey: `${replay}.draft.0.0`, tenantId: t, runId: replay, node: 'draft', iteration: 0, shard: 0, status: 'completed' },
    });
    expect(await withRecordingScope(from('verify.0.0'), () => recorded(search('verify.0.0'), Hits, liveSearch(['new verify'])))).toEqual([
      'new verify',
    ]);
  });

  it("web search answers are the tenant's cache within its TTL; freshSearch, a TTL of 0 and another tenant ask again", async () => {
    const t = await tenant();
    await withRecordingScope(scope(t, randomUUID(), 'retrieve.0.0'), () =>
      recorded(search('cached'), Hits, liveSearch(['old']), { cache: true }),
    );
    const again = liveSearch(['new']);
    const second = randomUUID();
    expect(
      await withRecordingScope(scope(t, second, 'retrieve.0.3'), () => recorded(search('cached'), Hits, again, { cache: true })),
    ).toEqual(['old']);
    expect(again).not.toHaveBeenCalled();
    expect((await repo.size(prisma, t, second)).calls).toBe(1);
    // Without `cache` (the corpus provider) the same request is asked again.
    expect(await withRecordingScope(scope(t, randomUUID(), 'retrieve.0.0'), () => recorded(search('cached'), Hits, again))).toEqual([
      'new',
    ]);
    const fresh = liveSearch(['fresh']);
    expect(
      await withRecordingScope(scope(t, randomUUID(), 'retrieve.0.0', { freshSearch: true }), () =>
        recorded(search('cached'), Hits, fresh, { cache: true }),
      ),
    ).toEqual(['fresh']);
    const noCache = await tenant({ recordings: { searchCacheTtlHours: 0 } });
    await withRecordingScope(scope(noCache, randomUUID(), 'retrieve.0.0'), () =>
      recorded(search('cached'), Hits, liveSearch(['a']), { cache: true }),
    );
    expect(
      await withRecordingScope(scope(noCache, randomUUID(), 'retrieve.0.0'), () =>
        recorded(search('cached'), Hits, liveSearch(['b']), { cache: true }),
      ),
    ).toEqual(['b']);
    const other = await tenant();
    expect(
      await withRecordingScope(scope(other, randomUUID(), 'retrieve.0.0'), () =>
        recorded(search('cached'), Hits, liveSearch(['mine']), { cache: true }),
      ),
    ).toEqual(['mine']);
  });

  it('retention: calls expire after the tenant policy, answers go when no call names them, shared answers stay', async () => {
    const t = await tenant({ recordings: { retentionDays: 2 } });
    const [a, b] = [randomUUID(), randomUUID()];
    await withRecordingScope(scope(t, a, 'retrieve.0.0'), () => recorded(search('shared'), Hits, liveSearch(['same'])));
    await withRecordingScope(scope(t, a, 'retrieve.0.1'), () => recorded(search('only a'), Hits, liveSearch(['a only'])));
    const [call] = await prisma.runRecording.findMany({ where: { runId: a }, take: 1 });
    const days = (call!.expiresAt.getTime() - call!.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(2, 2);
    // Run b consumed the same answer later, and keeps it past run a's retention.
    await withRecordingScope(scope(t, b, 'retrieve.0.0'), () => recorded(search('shared'), Hits, liveSearch(['same'])));
    await prisma.runRecording.updateMany({ where: { runId: a }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const purged = await repo.purgeExpired(prisma);
    expect(purged.calls).toBeGreaterThanOrEqual(2);
    expect(await prisma.runRecording.count({ where: { runId: a } })).toBe(0);
    const left = await repo.ofRun(prisma, t, b);
    expect(left.answers.map((x) => x.body)).toEqual([['same']]);
    expect(await prisma.recordedAnswer.count({ where: { tenantId: t } })).toBe(1);
  });
});
