import { AgentRunner } from '@dossier/agents';
import { PrismaAgentStore } from '@dossier/agent-store';
import { PrismaService, ResearchRepository } from '@dossier/db';
import { StageStateError } from '@dossier/errors';
import { createTestDatabase, seedRun, sql, stepContext, type SeededRun, type TestDatabase } from '@dossier/testing';
import { VerifyHandler } from '../src/verify/verify.handler';

/**
 * The verify handler on its own against real Postgres (the offline engine plays the Verifier beside the
 * deterministic guard): one finding per sentence of the section's draft, a sentence its excerpt states passing
 * and one its excerpt does not support failing; a shard the outline does not have is a typed stage-state error.
 */
const EXCERPT = 'Cold water lowers the battery capacity of electric ferries by about 20 percent in winter.';

describe('verify handler (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let handler: VerifyHandler;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
    handler = new VerifyHandler(new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' }), new ResearchRepository(prisma));
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function draftedRun(): Promise<SeededRun> {
    const run = await seedRun(db.url, 'What limits the range of electric ferries?');
    const base = { tenantId: run.tenantId, runId: run.id };
    const snapshot = await prisma.sourceSnapshot.create({
      data: { tenantId: run.tenantId, url: 'https://example.org/f', title: 'F', contentHash: 'f', text: EXCERPT, mediaType: 'text/plain' },
    });
    const evidence = await prisma.evidenceFragment.create({
      data: {
        ...base,
        snapshotId: snapshot.id,
        iteration: 0,
        excerpt: EXCERPT,
        start: 0,
        end: EXCERPT.length,
        statement: EXCERPT,
        confidence: 1,
      },
    });
    const section = await prisma.outlineSection.create({
      data: { ...base, revision: 0, position: 0, title: 'Cold water', purpose: 'Winter range', claimIds: [] },
    });
    await prisma.sectionDraft.create({
      data: {
        ...base,
        sectionId: section.id,
        round: 0,
        paragraphs: [
          {
            sentences: [
              {
                text: 'Cold water lowers the battery capacity of electric ferries by about 20 percent in winter.',
                evidenceIds: [evidence.id],
              },
              { text: 'Electric ferries were first built in Japan in 1962 by a shipyard in Osaka.', evidenceIds: [evidence.id] },
            ],
          },
        ],
      },
    });
    return run;
  }

  it('writes one finding per sentence: the stated one supported, the unsupported one failing', async () => {
    const run = await draftedRun();
    const outcome = await handler.execute(stepContext(run, 'verify', { shard: 0 }));
    await prisma.$transaction((tx) => outcome.write!(tx));
    const findings = await sql<{ sentence: number; verdict: string }>(
      db.url,
      'SELECT sentence, verdict FROM verification_findings WHERE run_id = $1 ORDER BY paragraph, sentence',
      [run.id],
    );
    expect(outcome.result).toEqual({ checked: 2, failing: 1 });
    expect(findings.map((f) => f.sentence)).toEqual([0, 1]);
    expect(findings[0]!.verdict).toBe('supported');
    expect(findings[1]!.verdict).not.toBe('supported');
  });

  it('a shard the outline does not have: StageStateError naming the run, no findings', async () => {
    const run = await draftedRun();
    const err = await handler.execute(stepContext(run, 'verify', { shard: 2 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StageStateError);
    expect((err as StageStateError).runId).toBe(run.id);
    expect((err as Error).message).toBe('The outline has no section 2');
    expect(await sql(db.url, 'SELECT id FROM verification_findings WHERE run_id = $1', [run.id])).toHaveLength(0);
  });
});
