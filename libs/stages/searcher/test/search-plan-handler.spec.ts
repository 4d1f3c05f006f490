import { AgentOutputError, AgentRunner } from '@dossier/agents';
import { PrismaAgentStore } from '@dossier/agent-store';
import { InterventionRepository, PrismaService, ResearchRepository } from '@dossier/db';
import { createTestDatabase, seedRun, sql, stepContext, unusableEngine, type SeededRun, type TestDatabase } from '@dossier/testing';
import { FRONTIER_QUESTIONS, SearchPlanHandler } from '../src/search-plan/search-plan.handler';

/**
 * The search_plan handler on its own against real Postgres (the offline engine plays the Query Planner): one
 * search plan per query, for the open questions of the frontier only, which become partial; a model answer of
 * the wrong shape fails the step with a typed error naming the run, and nothing changes.
 */
describe('search_plan handler (real Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let research: ResearchRepository;
  let interventions: InterventionRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
    research = new ResearchRepository(prisma);
    interventions = new InterventionRepository(prisma);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  /** A run with more open questions than the frontier takes, and one already answered. */
  async function plannedRun(): Promise<SeededRun> {
    const run = await seedRun(db.url, 'What limits the range of electric ferries?', { searchProviders: ['corpus'] });
    const texts = ['battery mass', 'charging time', 'cold water', 'hull drag', 'crew rules', 'port power', 'route length', 'speed'];
    for (const [i, topic] of texts.entries()) {
      await prisma.researchQuestion.create({
        data: { tenantId: run.tenantId, runId: run.id, iteration: 0, text: `How does ${topic} limit ferry range?`, priority: i },
      });
    }
    await prisma.researchQuestion.create({
      data: { tenantId: run.tenantId, runId: run.id, iteration: 0, text: 'Who builds electric ferries?', priority: 1, status: 'answered' },
    });
    return run;
  }

  const questions = (run: SeededRun) =>
    sql<{ id: string; status: string }>(db.url, 'SELECT id, status FROM research_questions WHERE run_id = $1 ORDER BY id', [run.id]);

  it('writes one plan per query for frontier questions, and marks those questions partial', async () => {
    const run = await plannedRun();
    const handler = new SearchPlanHandler(new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' }), research, interventions);
    const outcome = await handler.execute(stepContext(run, 'search_plan', { iteration: 1 }));
    await prisma.$transaction((tx) => outcome.write!(tx));

    const plans = await sql<{ question_id: string; iteration: number; shard: number; provider: string }>(
      db.url,
      'SELECT question_id, iteration, shard, provider FROM search_plans WHERE run_id = $1 ORDER BY shard',
      [run.id],
    );
    const after = await questions(run);
    const partial = new Set(after.filter((q) => q.status === 'partial').map((q) => q.id));
    expect(outcome.result.queries).toBeGreaterThan(0);
    expect(plans.map((p) => p.shard)).toEqual(plans.map((_, i) => i));
    expect(plans.every((p) => p.iteration === 1 && p.provider === 'corpus')).toBe(true);
    for (const p of plans) expect(partial.has(p.question_id)).toBe(true);
    expect(partial.size).toBe(FRONTIER_QUESTIONS);
    expect(after.filter((q) => q.status === 'answered')).toHaveLength(1);
  });

  it('a model answer of the wrong shape: AgentOutputError with the run id, no plans, questions unchanged', async () => {
    const run = await plannedRun();
    const before = await questions(run);
    const handler = new SearchPlanHandler(
      new AgentRunner(new PrismaAgentStore(prisma), { engine: unusableEngine }),
      research,
      interventions,
    );
    const err = await handler.execute(stepContext(run, 'search_plan')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentOutputError);
    expect((err as AgentOutputError).runId).toBe(run.id);
    expect(await sql(db.url, 'SELECT id FROM search_plans WHERE run_id = $1', [run.id])).toHaveLength(0);
    expect(await questions(run)).toEqual(before);
  });
});
