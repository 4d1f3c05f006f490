import { AgentOutputError, AgentRunner } from '@dossier/agents';
import { PrismaAgentStore } from '@dossier/agent-store';
import { PrismaService, ResearchRepository } from '@dossier/db';
import { StageStateError } from '@dossier/errors';
import { createTestDatabase, seedRun, sql, stepContext, unusableEngine, type SeededRun, type TestDatabase } from '@dossier/testing';
import { DraftHandler } from '../src/draft/draft.handler';
import { OutlineHandler } from '../src/outline/outline.handler';

/**
 * The outline and draft handlers on their own against real Postgres (the offline engine plays the Outline
 * Architect and the Section Writer), over claims and evidence written straight into the run: their result and
 * rows, and their bad-input paths (a model answer of the wrong shape; a shard the outline does not have).
 */
const EXCERPTS = [
  'Cold water lowers battery capacity by about 20 percent in winter.',
  'The range of a ferry is limited mainly by battery mass.',
  'Operators charge the ferries at the quay for ten minutes at each crossing.',
];

describe('writer handlers (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let research: ResearchRepository;
  let offline: AgentRunner;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
    research = new ResearchRepository(prisma);
    offline = new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  /**
   * One evidence fragment per excerpt of the snapshot's text (at its offsets) and one claim stating it; the ids in
   * order.
   */
  async function claimsOn(
    run: SeededRun,
    snapshotId: string,
    excerpts: readonly string[],
    text: string,
    extra: { questionId?: string; subject: string },
  ): Promise<{ claimIds: string[]; evidenceIds: string[] }> {
    const base = { tenantId: run.tenantId, runId: run.id };
    const claimIds: string[] = [];
    const evidenceIds: string[] = [];
    for (const excerpt of excerpts) {
      const start = text.indexOf(excerpt);
      const e = await prisma.evidenceFragment.create({
        data: {
          ...base,
          snapshotId,
          ...(extra.questionId ? { questionId: extra.questionId } : {}),
          iteration: 0,
          excerpt,
          start,
          end: start + excerpt.length,
          statement: excerpt,
          confidence: 0.9,
        },
      });
      const c = await prisma.claim.create({
        data: { ...base, iteration: 0, statement: excerpt, subject: extra.subject, status: 'reported' },
      });
      await prisma.claimEvidence.create({ data: { claimId: c.id, evidenceId: e.id } });
      claimIds.push(c.id);
      evidenceIds.push(e.id);
    }
    return { claimIds, evidenceIds };
  }

  /** A run with one question, three evidence fragments and one claim per fragment. */
  async function researchedRun(): Promise<{ run: SeededRun; claimIds: string[]; evidenceIds: string[] }> {
    const run = await seedRun(db.url, 'What limits the range of electric ferries?');
    const base = { tenantId: run.tenantId, runId: run.id };
    const question = await prisma.researchQuestion.create({ data: { ...base, iteration: 0, text: run.question, priority: 1 } });
    const text = EXCERPTS.join(' ');
    const snapshot = await prisma.sourceSnapshot.create({
      data: { tenantId: run.tenantId, url: 'https://example.org/f', title: 'Ferries', contentHash: 'f', text, mediaType: 'text/plain' },
    });
    return { run, ...(await claimsOn(run, snapshot.id, EXCERPTS, text, { questionId: question.id, subject: 'ferries' })) };
  }

  describe('outline', () => {
    it("writes this revision's sections, each using only the run's claims", async () => {
      const { run, claimIds } = await researchedRun();
      const outcome = await new OutlineHandler(offline, research).execute(stepContext(run, 'outline', { iteration: 1 }));
      await prisma.$transaction((tx) => outcome.write!(tx));
      const sections = await research.latestOutline(run.tenantId, run.id);
      expect(outcome.result.sections).toBeGreaterThan(0);
      expect(sections).toHaveLength(outcome.result.sections);
      expect(sections.map((s) => s.revision)).toEqual(sections.map(() => 1));
      const used = sections.flatMap((s) => s.claimIds as string[]);
      expect(used.length).toBeGreaterThan(0);
      for (const id of used) expect(claimIds).toContain(id);
    });

    it('gives the architect what each claim stands under in its source: the description under "--amend" answers a question about --amend', async () => {
      const run = await seedRun(db.url, 'What does git commit --amend do?');
      const text =
        '--amend\n\nReplaces the tip of the current branch by a new one.\n\n--dry-run\n\nShows the paths that would be recorded.';
      const snapshot = await prisma.sourceSnapshot.create({
        data: {
          tenantId: run.tenantId,
          url: 'https://example.org/git-commit',
          title: 'git-commit',
          contentHash: 'g',
          text,
          mediaType: 'text/plain',
        },
      });
      const { claimIds } = await claimsOn(
        run,
        snapshot.id,
        ['Replaces the tip of the current branch by a new one.', 'Shows the paths that would be recorded.'],
        text,
        { subject: 'git' },
      );
      const outcome = await new OutlineHandler(offline, research).execute(stepContext(run, 'outline'));
      await prisma.$transaction((tx) => outcome.write!(tx));
      // Neither sentence shares a word with the question; the first is the definition of the option it asks about.
      const used = (await research.latestOutline(run.tenantId, run.id)).flatMap((s) => s.claimIds as string[]);
      expect(used).toEqual([claimIds[0]]);
    });

    it('a model answer of the wrong shape: AgentOutputError with the run id, no sections', async () => {
      const { run } = await researchedRun();
      const err = await new OutlineHandler(new AgentRunner(new PrismaAgentStore(prisma), { engine: unusableEngine }), research)
        .execute(stepContext(run, 'outline'))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AgentOutputError);
      expect((err as AgentOutputError).runId).toBe(run.id);
      expect(await sql(db.url, 'SELECT id FROM outline_sections WHERE run_id = $1', [run.id])).toHaveLength(0);
    });
  });

  describe('draft', () => {
    async function outlined(): Promise<{ run: SeededRun; evidenceIds: string[] }> {
      const { run, claimIds, evidenceIds } = await researchedRun();
      await prisma.outlineSection.create({
        data: { tenantId: run.tenantId, runId: run.id, revision: 0, position: 0, title: 'Range', purpose: 'What limits range', claimIds },
      });
      return { run, evidenceIds };
    }

    it("writes the section's round-0 draft; every sentence cites the section's evidence", async () => {
      const { run, evidenceIds } = await outlined();
      const outcome = await new DraftHandler(offline, research).execute(stepContext(run, 'draft', { shard: 0 }));
      await prisma.$transaction((tx) => outcome.write!(tx));
      const [section] = await research.latestOutline(run.tenantId, run.id);
      const draft = await research.latestDraft(run.tenantId, section!.id, 0);
      const sentences = (draft!.paragraphs as { sentences: { text: string; evidenceIds: string[] }[] }[]).flatMap((p) => p.sentences);
      expect(outcome.result.sentences).toBeGreaterThan(0);
      expect(sentences).toHaveLength(outcome.result.sentences);
      for (const s of sentences) {
        expect(s.evidenceIds.length).toBeGreaterThan(0);
        for (const id of s.evidenceIds) expect(evidenceIds).toContain(id);
      }
    });

    it('a shard the outline does not have: StageStateError naming the run, no draft', async () => {
      const { run } = await outlined();
      const err = await new DraftHandler(offline, research).execute(stepContext(run, 'draft', { shard: 4 })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StageStateError);
      expect((err as StageStateError).runId).toBe(run.id);
      expect((err as Error).message).toBe('The outline has no section 4');
      expect(await sql(db.url, 'SELECT id FROM section_drafts WHERE run_id = $1', [run.id])).toHaveLength(0);
    });
  });
});
