import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RunOptions, type StepJobOf } from '@dossier/contracts';
import { createPrismaClient, PrismaService, ResearchRepository, TenantRepository } from '@dossier/db';
import { allFulfilled, createTestDatabase, raceAtWrites, separateClients, sql, type TestDatabase, newRunFields } from '@dossier/testing';
import type { StepContext } from '@dossier/workflow';
import { SearchProviders } from '../src/providers/search-providers';
import { RetrieveHandler } from '../src/retrieve/retrieve.handler';

/**
 * Several runs of one tenant retrieve the same corpus documents at the same time (docs/decisions/0012):
 * every run's retrieve step stores its snapshots, the runs meet at those writes and write together. Before,
 * the snapshots were upserted (read, then insert) inside each step's transaction: the runs failed with P2002
 * on source_snapshots_tenant_id_content_hash_key, or deadlocked waiting for each other's new rows.
 */
const RUNS = 4;
const TX = { timeout: 60_000, maxWait: 60_000 };

describe('retrieve: runs of one tenant storing the same documents at once (real Postgres)', () => {
  let db: TestDatabase;
  let admin: ReturnType<typeof createPrismaClient>;
  let redis: Redis;
  const tenantId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = createPrismaClient({ url: db.url, poolMax: 2 });
    // Web providers are not configured here, so the rate-limit client is never used (nor connected).
    redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
    await admin.tenant.create({ data: { id: tenantId, name: 'retrievers' } });
    const collection = await admin.collection.create({ data: { tenantId, name: 'lighthouses' } });
    for (const [i, text] of [
      'The Skerry lighthouse was lit in 1861 and automated in 1983.',
      'Keepers of the Skerry lighthouse logged storms every winter.',
      'A lighthouse on Skerry rock guides ships past the reef.',
    ].entries()) {
      await admin.document.create({
        data: {
          tenantId,
          collectionId: collection.id,
          path: `doc-${i}.md`,
          title: `Lighthouse ${i}`,
          mediaType: 'text/markdown',
          contentHash: `hash-${i}`,
          text,
        },
      });
    }
  });
  afterAll(async () => {
    redis?.disconnect();
    await admin?.$disconnect();
    await db?.drop();
  });

  async function newRun(): Promise<StepContext<'retrieve'>> {
    const runId = randomUUID();
    const options = RunOptions.parse({ collection: 'lighthouses' });
    await admin.researchRun.create({
      data: { id: runId, tenantId, question: 'Skerry lighthouse?', status: 'running', options, workflowVersion: 1 },
    });
    const question = await admin.researchQuestion.create({
      data: { tenantId, runId, iteration: 0, text: 'When was it lit?', priority: 1 },
    });
    await admin.searchPlan.create({
      data: { tenantId, runId, questionId: question.id, iteration: 0, shard: 0, query: 'Skerry lighthouse', provider: 'corpus' },
    });
    const job: StepJobOf<'retrieve'> = { tenantId, runId, node: 'retrieve', iteration: 0, shard: 0 };
    return {
      job,
      stepKey: `${runId}.retrieve.0.0`,
      tenantId,
      runId,
      call: { tenantId, runId, stepKey: `${runId}.retrieve.0.0` },
      attempt: 1,
      run: { id: runId, tenantId, question: 'Skerry lighthouse?', options, workflowVersion: 1, ...newRunFields() },
      rejectionFeedback: async () => null,
    };
  }

  it('every run completes its retrieve step, and the tenant has one snapshot per document', async () => {
    const contexts = await Promise.all(Array.from({ length: RUNS }, () => newRun()));
    const { clients, close } = await separateClients(RUNS, () => new PrismaService({ url: db.url, poolMax: 2 }));
    try {
      const race = await raceAtWrites(
        db.url,
        'source_snapshots',
        clients.map((prisma, i) => async () => {
          const handler = new RetrieveHandler(
            prisma,
            new ResearchRepository(prisma),
            new SearchProviders(prisma, redis),
            new TenantRepository(prisma),
          );
          const outcome = await handler.execute(contexts[i]!);
          await prisma.$transaction((tx) => outcome.write!(tx), TX);
          return outcome.result;
        }),
      );
      expect(race.overlapped).toBe(true);
      expect(allFulfilled(race)).toEqual(Array.from({ length: RUNS }, () => ({ results: 3 })));
    } finally {
      await close();
    }
    const snapshots = await sql<{ id: string }>(db.url, 'SELECT id FROM source_snapshots WHERE tenant_id = $1', [tenantId]);
    expect(snapshots).toHaveLength(3);
    const records = await sql<{ run_id: string; snapshot_id: string }>(
      db.url,
      'SELECT run_id, snapshot_id FROM source_records WHERE tenant_id = $1 ORDER BY run_id, snapshot_id',
      [tenantId],
    );
    expect(records).toHaveLength(3 * RUNS);
    // Every run's records point at the same three snapshots.
    for (const ctx of contexts) {
      expect(records.filter((r) => r.run_id === ctx.run.id).map((r) => r.snapshot_id)).toEqual(snapshots.map((s) => s.id).sort());
    }
  });
});
