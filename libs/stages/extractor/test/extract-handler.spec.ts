import { AgentRunner } from '@dossier/agents';
import { PrismaAgentStore } from '@dossier/agent-store';
import { PrismaService, ResearchRepository } from '@dossier/db';
import { StageStateError } from '@dossier/errors';
import { createTestDatabase, seedRun, sql, stepContext, type TestDatabase } from '@dossier/testing';
import type { SeededRun } from '@dossier/testing';
import { namedByQuestion } from '@dossier/agents';
import { ExtractHandler, FRAGMENTS_PER_DEEP_SOURCE, FRAGMENTS_PER_SOURCE } from '../src/extract/extract.handler';

/**
 * The extract handler on its own against real Postgres (the offline engine plays the Evidence Curator): every
 * fragment it writes is a verbatim slice of the snapshot at its offsets; a shard with no selected source is a
 * typed stage-state error naming the run, and nothing is written.
 */
const TEXT = [
  'Electric ferries in Norway carry batteries of up to 4 MWh.',
  'Cold water lowers battery capacity by about 20 percent in winter.',
  'Operators charge the ferries at the quay for ten minutes at each crossing.',
  'The range of a ferry is limited mainly by battery mass and charging time.',
].join(' ');

describe('extract handler (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let handler: ExtractHandler;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
    const research = new ResearchRepository(prisma);
    handler = new ExtractHandler(new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' }), research);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function selectedSource(run: SeededRun, shard: number, text = TEXT, rank = 1): Promise<string> {
    const question = await prisma.researchQuestion.create({
      data: { tenantId: run.tenantId, runId: run.id, iteration: 0, text: 'What limits the range of electric ferries?', priority: 1 },
    });
    const plan = await prisma.searchPlan.create({
      data: {
        tenantId: run.tenantId,
        runId: run.id,
        questionId: question.id,
        iteration: 0,
        shard: 0,
        query: 'ferry range',
        provider: 'corpus',
      },
    });
    const snapshot = await prisma.sourceSnapshot.create({
      data: {
        tenantId: run.tenantId,
        url: 'https://example.org/ferries',
        title: 'Ferries',
        contentHash: `h-${run.id}-${shard}`,
        text,
        mediaType: 'text/plain',
      },
    });
    await prisma.sourceRecord.create({
      data: {
        tenantId: run.tenantId,
        runId: run.id,
        searchPlanId: plan.id,
        iteration: 0,
        url: snapshot.url,
        canonicalUrl: snapshot.url,
        title: snapshot.title,
        snippet: '',
        origin: 'corpus',
        rank,
        selected: true,
        extractShard: shard,
        snapshotId: snapshot.id,
      },
    });
    return snapshot.id;
  }

  it('writes evidence whose excerpts are the snapshot between their offsets; the result counts them', async () => {
    const run = await seedRun(db.url, 'What limits the range of electric ferries?');
    const snapshotId = await selectedSource(run, 0);
    const outcome = await handler.execute(stepContext(run, 'extract'));
    await prisma.$transaction((tx) => outcome.write!(tx));

    const rows = await sql<{ excerpt: string; start: number; end: number; snapshot_id: string }>(
      db.url,
      'SELECT excerpt, start, "end", snapshot_id FROM evidence_fragments WHERE run_id = $1',
      [run.id],
    );
    expect(outcome.result.evidence).toBeGreaterThan(0);
    expect(rows).toHaveLength(outcome.result.evidence);
    for (const r of rows) {
      expect(r.snapshot_id).toBe(snapshotId);
      expect(TEXT.slice(r.start, r.end)).toBe(r.excerpt);
    }
  });

  it('a shard with no selected source: StageStateError naming the run, nothing written', async () => {
    const run = await seedRun(db.url, 'What limits the range of electric ferries?');
    await selectedSource(run, 0);
    const err = await handler.execute(stepContext(run, 'extract', { shard: 3 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageStateError);
    expect((err as StageStateError).runId).toBe(run.id);
    expect((err as Error).message).toMatch(/No selected source for extract shard 3 of iteration 0/);
    expect(await sql(db.url, 'SELECT id FROM evidence_fragments WHERE run_id = $1', [run.id])).toHaveLength(0);
  });

  it('reads the best-ranked sources and every first hit of a query deeper than the rest', async () => {
    // Sixty sentences that each answer a little: how many the curator keeps is the depth it was asked for.
    const long = Array.from(
      { length: 60 },
      (_, i) => `Electric ferry number ${i + 1} has a range limited by its battery of ${100 + i} kWh and its charging time.`,
    ).join(' ');
    const count = async (shard: number, rank: number) => {
      const run = await seedRun(db.url, 'What limits the range of electric ferries?');
      await selectedSource(run, shard, long, rank);
      return (await handler.execute(stepContext(run, 'extract', { shard }))).result.evidence;
    };
    expect(await count(0, 3)).toBe(FRAGMENTS_PER_DEEP_SOURCE);
    expect(await count(5, 1)).toBe(FRAGMENTS_PER_DEEP_SOURCE);
    expect(await count(5, 2)).toBe(FRAGMENTS_PER_SOURCE);
  });

  it.each([
    ['git-commit(1) Manual Page', 'How do I fix the last commit with git commit --amend?', true],
    ['subprocess --- Subprocess management', 'How do I run an external command with subprocess.run?', true],
    ['pickle — Python object serialization', 'Is it safe to load pickle files that I download?', true],
    ['git-commit(1) Manual Page', 'How do I undo the last commit with git reset?', false],
    // A capitalised title names a setting or a story, not the page a question asks about.
    ['Lake Varen: Frequently Asked Questions', 'Why did the water level of Lake Varen fall?', false],
    ['Fighting regressions with git bisect', 'How can I find which commit introduced a bug with git bisect?', false],
  ])('the question names the page "%s": %s', (title, question, named) => expect(namedByQuestion(title, question)).toBe(named));
});
