import {
  AuditRepository,
  InterventionRepository,
  PrismaService,
  ResearchRepository,
  RunEventRepository,
  RunRepository,
  interventionInput,
} from '@dossier/db';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { AuditLog } from '@dossier/workflow';
import { InterventionApplier, questionsToAdd } from '../src/moderate/apply-interventions';

const TENANT = '00000000-0000-4000-8000-0000000000a1';
const RUN = '00000000-0000-4000-8000-0000000000b1';

/**
 * The application side of exclude_source / exclude_domain / narrow_scope against real Postgres, on a run
 * whose sources, evidence, claims and contradictions are laid out by hand (the CLI end-to-end test runs
 * the whole loop; this one pins down which rows go and which stay).
 */
describe('InterventionApplier (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let applier: InterventionApplier;
  let interventions: InterventionRepository;
  let audit: AuditLog;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
    const research = new ResearchRepository(prisma);
    interventions = new InterventionRepository(prisma);
    audit = new AuditLog(prisma, new AuditRepository(prisma), new RunRepository(prisma));
    applier = new InterventionApplier(research, interventions, new RunEventRepository(prisma), audit);

    await sql(db.url, `INSERT INTO tenants (id, name) VALUES ('${TENANT}', 't')`);
    await sql(
      db.url,
      `INSERT INTO research_runs (id, tenant_id, question, status, options, workflow_version, updated_at) VALUES ('${RUN}', '${TENANT}', 'q', 'running', '{}', 1, now())`,
    );
    const base = { tenantId: TENANT, runId: RUN };
    const q = await prisma.researchQuestion.create({ data: { ...base, iteration: 0, text: 'Existing question?', priority: 50 } });
    const plan = await prisma.searchPlan.create({
      data: { ...base, questionId: q.id, iteration: 0, shard: 0, query: 'q', provider: 'corpus' },
    });
    const snap = async (key: string, url: string) =>
      (ids[`snap:${key}`] = (
        await prisma.sourceSnapshot.create({
          data: { tenantId: TENANT, url, title: key, contentHash: key, text: `text of ${key}`, mediaType: 'text/plain' },
        })
      ).id);
    const record = async (key: string, url: string, snapshotId: string, rank: number) =>
      (ids[key] = (
        await prisma.sourceRecord.create({
          data: {
            ...base,
            searchPlanId: plan.id,
            iteration: 0,
            url,
            canonicalUrl: url,
            title: key,
            snippet: '',
            origin: 'web',
            rank,
            snapshotId,
          },
        })
      ).id);
    await record('a', 'https://a.example.org/x', await snap('a', 'https://a.example.org/x'), 1);
    await record('a2', 'https://a.example.org/x', ids['snap:a']!, 5); // the same page seen again
    await record('b', 'https://news.b.example/y', await snap('b', 'https://news.b.example/y'), 2);
    await record('notb', 'https://notb.example/z', await snap('notb', 'https://notb.example/z'), 3);
    await record('c', 'corpus://docs/c.md', await snap('c', 'corpus://docs/c.md'), 4);
    const evidence = async (key: string, snapshot: string) =>
      (ids[key] = (
        await prisma.evidenceFragment.create({
          data: {
            ...base,
            snapshotId: ids[`snap:${snapshot}`]!,
            iteration: 0,
            excerpt: key,
            start: 0,
            end: 4,
            statement: key,
            confidence: 1,
          },
        })
      ).id);
    for (const [key, snapshot] of [
      ['eA1', 'a'],
      ['eB1', 'b'],
      ['eN1', 'notb'],
      ['eC1', 'c'],
    ] as const)
      await evidence(key, snapshot);
    const claim = async (key: string, evidenceKeys: string[]) =>
      (ids[key] = (
        await prisma.claim.create({
          data: {
            ...base,
            iteration: 0,
            statement: key,
            subject: 's',
            status: 'supported',
            evidence: { create: evidenceKeys.map((e) => ({ evidenceId: ids[e]! })) },
          },
        })
      ).id);
    await claim('onlyA', ['eA1']);
    await claim('aAndC', ['eA1', 'eC1']);
    await claim('onlyB', ['eB1']);
    await claim('onlyN', ['eN1']);
    await prisma.contradiction.create({ data: { ...base, claimAId: ids['onlyA']!, claimBId: ids['onlyN']!, kind: 'numeric', note: 'n' } });
    await prisma.contradiction.create({ data: { ...base, claimAId: ids['aAndC']!, claimBId: ids['onlyN']!, kind: 'numeric', note: 'n' } });
    const queuedAt = new Date();
    for (const [type, payload] of [
      ['exclude_source', { sourceId: ids['a2'] }],
      ['exclude_domain', { domain: 'b.example' }],
      ['narrow_scope', { scope: 'Only 2015 to 2024' }],
      ['add_question', { question: 'existing QUESTION?' }],
      ['add_question', { question: 'A new question?' }],
    ] as const) {
      // All in one millisecond, as a burst of posts can be: the queue's order must still be the order posted.
      await prisma.runIntervention.create({ data: { ...base, type, payload, createdBy: 'alice', createdAt: queuedAt } });
    }
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function applyPending(): Promise<void> {
    const queued = (await interventions.pending(TENANT, RUN)).map((row) => ({ row, input: interventionInput(row) }));
    const added = questionsToAdd(queued, ['Existing question?']);
    await prisma.$transaction(async (tx) => {
      await new RunRepository(prisma).lock(tx, TENANT, RUN);
      await applier.apply(tx, TENANT, RUN, 0, queued, added);
    });
  }

  it('drops the excluded sources with their evidence, the claims resting only on it and their contradictions; keeps the rest', async () => {
    const queued = (await interventions.pending(TENANT, RUN)).map((row) => ({ row, input: interventionInput(row) }));
    // A question already asked (any case) is not asked again; a new one is.
    expect(questionsToAdd(queued, ['Existing question?']).map((a) => a.text)).toEqual(['A new question?']);
    await applyPending();

    const records = await prisma.sourceRecord.findMany({ where: { runId: RUN }, select: { id: true, excludedBy: true } });
    const all = await interventions.list(TENANT, RUN);
    const [bySource, byDomain] = [all[0]!.id, all[1]!.id];
    const excluded = Object.fromEntries(records.map((r) => [Object.keys(ids).find((k) => ids[k] === r.id), r.excludedBy]));
    // exclude_source named one sighting: every sighting of that page goes. The domain takes its subdomains, not look-alikes.
    expect(excluded).toEqual({ a: bySource, a2: bySource, b: byDomain, notb: null, c: null });

    const evidenceLeft = (await prisma.evidenceFragment.findMany({ where: { runId: RUN }, select: { excerpt: true } }))
      .map((e) => e.excerpt)
      .sort();
    expect(evidenceLeft).toEqual(['eC1', 'eN1']);
    const claimsLeft = await new ResearchRepository(prisma).claims(TENANT, RUN);
    expect(claimsLeft.map((c) => [c.statement, c.evidenceIds])).toEqual([
      ['aAndC', [ids['eC1']]],
      ['onlyN', [ids['eN1']]],
    ]);
    const contradictions = await prisma.contradiction.findMany({ where: { runId: RUN } });
    expect(contradictions.map((c) => [c.claimAId, c.claimBId])).toEqual([[ids['aAndC'], ids['onlyN']]]);
  });

  it('marks each applied at the iteration, with an audit row (what it dropped) and an event; the rules later steps read', async () => {
    const all = await interventions.list(TENANT, RUN);
    expect(all.map((i) => [i.status, i.appliedIteration])).toEqual(Array.from({ length: 5 }, () => ['applied', 0]));
    const rows = await sql<{ payload: string }>(
      db.url,
      "SELECT payload FROM audit_events WHERE run_id = $1 AND kind = 'intervention_applied' ORDER BY seq",
      [RUN],
    );
    expect(rows.map((r) => JSON.parse(r.payload) as Record<string, unknown>)).toEqual([
      {
        interventionId: all[0]!.id,
        input: { type: 'exclude_source', sourceId: ids['a2'] },
        iteration: 0,
        dropped: { sources: 2, evidence: 1, claims: 1 },
      },
      {
        interventionId: all[1]!.id,
        input: { type: 'exclude_domain', domain: 'b.example' },
        iteration: 0,
        dropped: { sources: 1, evidence: 1, claims: 1 },
      },
      { interventionId: all[2]!.id, input: { type: 'narrow_scope', scope: 'Only 2015 to 2024' }, iteration: 0 },
      { interventionId: all[3]!.id, input: { type: 'add_question', question: 'existing QUESTION?' }, iteration: 0, questionAdded: false },
      { interventionId: all[4]!.id, input: { type: 'add_question', question: 'A new question?' }, iteration: 0, questionAdded: true },
    ]);
    const events = await sql<{ type: string }>(db.url, 'SELECT type FROM run_events WHERE run_id = $1 ORDER BY seq', [RUN]);
    expect(events.map((e) => e.type)).toEqual(Array.from({ length: 5 }, () => 'intervention_applied'));
    await expect(audit.verify(TENANT, RUN)).resolves.toEqual({ ok: true, rows: 5 });
    await expect(interventions.appliedRules(TENANT, RUN)).resolves.toEqual({
      excludedDomains: ['b.example'],
      excludedUrls: ['https://a.example.org/x', 'https://news.b.example/y'],
      scopes: ['Only 2015 to 2024'],
    });
    // Another tenant reads nothing of this run.
    await expect(interventions.appliedRules('00000000-0000-4000-8000-0000000000a2', RUN)).resolves.toEqual({
      excludedDomains: [],
      excludedUrls: [],
      scopes: [],
    });
  });

  it('applying the same queue again changes nothing (only pending rows are applied)', async () => {
    const before = await sql(db.url, 'SELECT count(*)::int AS n FROM audit_events WHERE run_id = $1', [RUN]);
    const queued = (await interventions.list(TENANT, RUN)).map((row) => ({ row, input: interventionInput(row) }));
    await prisma.$transaction(async (tx) => {
      await new RunRepository(prisma).lock(tx, TENANT, RUN);
      await applier.apply(tx, TENANT, RUN, 1, queued, []);
    });
    expect(await sql(db.url, 'SELECT count(*)::int AS n FROM audit_events WHERE run_id = $1', [RUN])).toEqual(before);
    expect((await interventions.list(TENANT, RUN)).every((i) => i.appliedIteration === 0)).toBe(true);
  });
});
