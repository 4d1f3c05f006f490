import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { PrismaService, runActivity, TenantRepository } from '../src';

/** GET /v1/runs/{id}/activity's read (decision 0093 moved it here from the gateway): what a run searched, read and found. */
describe('runActivity (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it("tells a run's queries, selected reading with its evidence, claims and contradictions by iteration, for its tenant only", async () => {
    const tenants = new TenantRepository(prisma);
    const [tenant, other] = [await tenants.create('a', {}), await tenants.create('b', {})];
    const tenantId = tenant.id;
    const run = await prisma.researchRun.create({ data: { tenantId, question: 'q', status: 'running', options: {}, workflowVersion: 1 } });
    const runId = run.id;
    const question = await prisma.researchQuestion.create({ data: { tenantId, runId, iteration: 0, text: 'why?', priority: 1 } });
    const plan = (iteration: number, shard: number, query: string) =>
      prisma.searchPlan.create({ data: { tenantId, runId, questionId: question.id, iteration, shard, query, provider: 'corpus' } });
    const second = await plan(1, 0, 'second query');
    const first = await plan(0, 0, 'q'.repeat(400));
    const snapshot = await prisma.sourceSnapshot.create({
      data: { tenantId, url: 'https://example.org/a', title: 'A', contentHash: 'h1', text: 'alpha beta', mediaType: 'text/plain' },
    });
    const record = (searchPlanId: string, iteration: number, url: string, selected: boolean, extractShard: number | null) =>
      prisma.sourceRecord.create({
        data: {
          tenantId,
          runId,
          searchPlanId,
          iteration,
          url,
          canonicalUrl: url,
          title: `T ${url}`,
          snippet: '',
          origin: 'corpus',
          rank: 1,
          selected,
          extractShard,
          snapshotId: selected ? snapshot.id : null,
        },
      });
    await record(first.id, 0, 'https://example.org/a', true, 0);
    await record(first.id, 0, 'https://example.org/b', false, null);
    await record(second.id, 1, 'https://example.org/c', true, 0);
    const fragment = (start: number) =>
      prisma.evidenceFragment.create({
        data: {
          tenantId,
          runId,
          snapshotId: snapshot.id,
          iteration: 0,
          excerpt: 'alpha',
          start,
          end: start + 5,
          statement: 's',
          confidence: 1,
        },
      });
    await fragment(0);
    await fragment(6);
    const claim = (iteration: number, statement: string) =>
      prisma.claim.create({ data: { tenantId, runId, iteration, statement, subject: 'x', status: 'supported' } });
    const [c0, , , , c1] = [
      await claim(0, 'one'),
      await claim(0, 'two'),
      await claim(0, 'three'),
      await claim(0, 'four'),
      await claim(1, 'five'),
    ];
    await prisma.contradiction.create({ data: { tenantId, runId, claimAId: c0.id, claimBId: c1.id, kind: 'direct', note: 'disagree' } });

    const view = await runActivity(prisma, tenantId, runId);
    expect(view.queries).toEqual([
      { iteration: 0, shard: 0, query: `${'q'.repeat(299)}…`, provider: 'corpus' },
      { iteration: 1, shard: 0, query: 'second query', provider: 'corpus' },
    ]);
    expect(view.reading).toEqual([
      { iteration: 0, shard: 0, title: 'T https://example.org/a', url: 'https://example.org/a', origin: 'corpus', evidence: 2 },
      { iteration: 1, shard: 0, title: 'T https://example.org/c', url: 'https://example.org/c', origin: 'corpus', evidence: 0 },
    ]);
    expect(view.claims).toEqual([
      { iteration: 0, count: 4, examples: expect.any(Array) as unknown },
      { iteration: 1, count: 1, examples: ['five'] },
    ]);
    expect(view.claims[0]!.examples).toHaveLength(3);
    // Found when the later of its two claims was made.
    expect(view.contradictions).toEqual([{ iteration: 1, kind: 'direct', note: 'disagree' }]);

    expect(await runActivity(prisma, other.id, runId)).toEqual({ queries: [], reading: [], claims: [], contradictions: [] });
  });
});
