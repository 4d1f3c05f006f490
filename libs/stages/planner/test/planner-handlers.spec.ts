import { AgentOutputError, AgentRunner } from '@dossier/agents';
import { PrismaAgentStore } from '@dossier/agent-store';
import { PrismaService, ResearchRepository } from '@dossier/db';
import type { SeededRun } from '@dossier/testing';
import { createTestDatabase, seedRun, sql, stepContext, unusableEngine, type TestDatabase } from '@dossier/testing';
import { PerspectivesHandler } from '../src/perspectives/perspectives.handler';
import { QuestionsHandler } from '../src/questions/questions.handler';
import { ScopeHandler } from '../src/scope/scope.handler';

/**
 * Each planner handler on its own against real Postgres (the offline engine plays the roles): its result and
 * what it writes, and its bad-input path, a model answer of the wrong shape, which fails the step with a typed,
 * unrecoverable error naming the run and writes nothing.
 */
describe('planner handlers (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let offline: AgentRunner;
  let unusable: AgentRunner;
  let research: ResearchRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
    offline = new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' });
    unusable = new AgentRunner(new PrismaAgentStore(prisma), { engine: unusableEngine });
    research = new ResearchRepository(prisma);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const QUESTION = 'What limits the range of electric ferries in cold water?';
  const count = async (table: string, run: SeededRun) =>
    Number((await sql<{ n: string }>(db.url, `SELECT count(*) AS n FROM ${table} WHERE run_id = $1`, [run.id]))[0]!.n);

  async function expectUnusable(promise: Promise<unknown>, run: SeededRun) {
    const err = await promise.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentOutputError);
    expect((err as AgentOutputError).runId).toBe(run.id);
  }

  describe('scope', () => {
    it('writes the run objective; the result counts its included topics', async () => {
      const run = await seedRun(db.url, QUESTION);
      const outcome = await new ScopeHandler(offline).execute(stepContext(run, 'scope'));
      await prisma.$transaction((tx) => outcome.write!(tx));
      const objective = await research.objective(run.tenantId, run.id);
      expect(objective?.statement.length).toBeGreaterThan(0);
      expect(outcome.result.topics).toBe((objective!.includedTopics as string[]).length);
    });

    it('a model answer of the wrong shape: AgentOutputError with the run id, no objective', async () => {
      const run = await seedRun(db.url, QUESTION);
      await expectUnusable(new ScopeHandler(unusable).execute(stepContext(run, 'scope')), run);
      expect(await count('research_objectives', run)).toBe(0);
    });
  });

  describe('perspectives', () => {
    it('writes the requested number of personas for this plan revision', async () => {
      const run = await seedRun(db.url, QUESTION, { perspectives: 3 });
      const outcome = await new PerspectivesHandler(offline, research).execute(stepContext(run, 'perspectives', { iteration: 1 }));
      await prisma.$transaction((tx) => outcome.write!(tx));
      const rows = await research.perspectives(run.tenantId, run.id, 1);
      expect(outcome.result).toEqual({ perspectives: 3 });
      expect(rows).toHaveLength(3);
      expect(new Set(rows.map((r) => r.name)).size).toBe(3);
    });

    it('a model answer of the wrong shape: AgentOutputError with the run id, no personas', async () => {
      const run = await seedRun(db.url, QUESTION);
      await expectUnusable(new PerspectivesHandler(unusable, research).execute(stepContext(run, 'perspectives')), run);
      expect(await count('perspectives', run)).toBe(0);
    });
  });

  describe('questions', () => {
    it("writes open questions tied to this revision's personas and drops the earlier revision's", async () => {
      const run = await seedRun(db.url, QUESTION, { perspectives: 2 });
      const perspectives = await new PerspectivesHandler(offline, research).execute(stepContext(run, 'perspectives'));
      await prisma.$transaction((tx) => perspectives.write!(tx));
      const first = await new QuestionsHandler(offline, research).execute(stepContext(run, 'questions'));
      await prisma.$transaction((tx) => first.write!(tx));
      const outcome = await new QuestionsHandler(offline, research).execute(stepContext(run, 'questions'));
      await prisma.$transaction((tx) => outcome.write!(tx));

      const rows = await sql<{ status: string; perspective_id: string | null }>(
        db.url,
        'SELECT status, perspective_id FROM research_questions WHERE run_id = $1',
        [run.id],
      );
      const open = rows.filter((r) => r.status === 'open');
      expect(outcome.result.questions).toBeGreaterThan(0);
      expect(open).toHaveLength(outcome.result.questions);
      expect(rows.filter((r) => r.status === 'dropped')).toHaveLength(first.result.questions);
      const personas = new Set((await research.perspectives(run.tenantId, run.id, 0)).map((p) => p.id));
      for (const q of open) if (q.perspective_id !== null) expect(personas.has(q.perspective_id)).toBe(true);
    });

    it('a model answer of the wrong shape: AgentOutputError with the run id, no questions', async () => {
      const run = await seedRun(db.url, QUESTION);
      await expectUnusable(new QuestionsHandler(unusable, research).execute(stepContext(run, 'questions')), run);
      expect(await count('research_questions', run)).toBe(0);
    });
  });
});
