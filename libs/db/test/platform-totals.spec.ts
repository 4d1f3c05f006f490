import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { platformTotals, PrismaService, TenantRepository } from '../src';

/** The operator's /metrics figures (apps/gateway/src/health/gateway-metrics.ts) summed over every tenant. */
describe('platformTotals (real Postgres)', () => {
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

  it('are zero on an empty database', async () => {
    expect(await platformTotals.runsByStatus(prisma)).toEqual([]);
    expect(await platformTotals.llmUsage(prisma)).toEqual({ tokensIn: 0, tokensOut: 0, costUsd: 0 });
  });

  it('count runs by status and sum llm_calls across tenants', async () => {
    const tenants = new TenantRepository(prisma);
    const [a, b] = [await tenants.create('a', {}), await tenants.create('b', {})];
    const run = (tenantId: string, status: string) =>
      prisma.researchRun.create({ data: { tenantId, question: 'q', status, options: {}, workflowVersion: 1 } });
    const ran = [await run(a.id, 'completed'), await run(b.id, 'completed'), await run(b.id, 'failed')];
    const call = (runId: string, tenantId: string, tokensIn: number, tokensOut: number, costUsd: number) =>
      prisma.llmCall.create({
        data: {
          tenantId,
          runId,
          stepKey: 's',
          role: 'writer',
          engine: 'openai',
          model: 'm',
          tokensIn,
          tokensOut,
          costUsd,
          latencyMs: 1,
          outcome: 'ok',
        },
      });
    await call(ran[0]!.id, a.id, 100, 10, 0.5);
    await call(ran[2]!.id, b.id, 50, 5, 0.25);

    const byStatus = await platformTotals.runsByStatus(prisma);
    expect(byStatus.sort((x, y) => x.status.localeCompare(y.status))).toEqual([
      { status: 'completed', count: 2 },
      { status: 'failed', count: 1 },
    ]);
    expect(await platformTotals.llmUsage(prisma)).toEqual({ tokensIn: 150, tokensOut: 15, costUsd: 0.75 });
  });
});
