import { AgentRunner, moderator } from '@dossier/agents';
import { insertQuestions, InterventionRepository, ResearchRepository, interventionInput } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { ADDED_QUESTION_PRIORITY, InterventionApplier, questionsToAdd } from './apply-interventions';
import { questionMaterial, type FoundText } from './material';

export const MAX_FOLLOW_UPS = 4;

/**
 * Research Moderator at the loop boundary: applies the interventions queued so far (docs/architecture.md §3), asks
 * follow-up questions for the gaps, and reports the signals the router uses to stop research (information
 * gain of this iteration, questions left to ask, questions a person added).
 */
@OnStep('moderate')
export class ModerateHandler implements StepHandler<'moderate'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    private readonly interventions: InterventionRepository,
    private readonly applier: InterventionApplier,
  ) {}

  async execute(ctx: StepContext<'moderate'>): Promise<StepOutcome<'moderate'>> {
    const { tenantId, runId } = ctx;
    const iteration = ctx.job.iteration;
    const [questions, coverage, pending, found] = await Promise.all([
      this.research.questions(tenantId, runId),
      this.research.coverage(tenantId, runId, iteration),
      // What is queued now is applied by this step; anything queued after this read waits for the next
      // boundary, or is discarded if research stops here (TransitionWriter).
      this.interventions.pending(tenantId, runId),
      this.foundText(tenantId, runId),
    ]);
    const material = questionMaterial(questions, found);
    const queued = pending.map((row) => ({ row, input: interventionInput(row) }));
    const scores = new Map(coverage.map((c) => [c.questionId, c.score]));
    const out = await this.agents.run(
      moderator,
      {
        question: ctx.run.question,
        coverage: questions.map((q) => ({
          questionId: q.id,
          text: q.text,
          score: scores.get(q.id) ?? 0,
          ...(material.has(q.id) ? { material: material.get(q.id) } : {}),
        })),
        iteration,
        maxFollowUps: MAX_FOLLOW_UPS,
      },
      ctx.call,
    );
    const gain = coverage.length === 0 ? 0 : coverage.reduce((s, c) => s + c.informationGain, 0) / coverage.length;
    // A person's questions first: a follow-up that repeats one is not asked twice.
    const added = questionsToAdd(
      queued,
      questions.map((q) => q.text),
    );
    const existing = new Set([...questions.map((q) => q.text.toLowerCase()), ...added.map((a) => a.text.toLowerCase())]);
    const followUps = out.followUps.filter((f) => !existing.has(f.text.toLowerCase()));
    return {
      result: {
        informationGain: Math.min(1, Math.max(0, gain)),
        openQuestions: followUps.length + added.length,
        ...(added.length > 0 ? { addedQuestions: added.length } : {}),
      },
      write: async (tx) => {
        await insertQuestions(tx, [
          ...added.map((a) => ({
            tenantId,
            runId,
            parentId: null,
            iteration: iteration + 1,
            text: a.text,
            priority: ADDED_QUESTION_PRIORITY,
            status: 'open',
          })),
          ...followUps.map((f) => ({
            tenantId,
            runId,
            parentId: f.parentId,
            iteration: iteration + 1,
            text: f.text,
            priority: f.priority,
            status: 'open',
          })),
        ]);
        await this.applier.apply(tx, tenantId, runId, iteration, queued, added);
      },
    };
  }

  /** What the run's searches and reads found, per question: each search result's snippet and each evidence excerpt. */
  private async foundText(tenantId: string, runId: string): Promise<FoundText[]> {
    const [plans, records, evidence] = await Promise.all([
      this.research.searchPlans(tenantId, runId),
      this.research.sourceRecords(tenantId, runId, { excludedBy: null }),
      this.research.evidence(tenantId, runId),
    ]);
    const planQuestion = new Map(plans.map((p) => [p.id, p.questionId]));
    const snapshotSource = new Map(records.flatMap((r) => (r.snapshotId ? [[r.snapshotId, r.canonicalUrl] as const] : [])));
    return [
      ...records.flatMap((r) => {
        const questionId = planQuestion.get(r.searchPlanId);
        return questionId ? [{ questionId, source: r.canonicalUrl, text: `${r.title}. ${r.snippet}` }] : [];
      }),
      ...evidence.flatMap((e) =>
        e.questionId ? [{ questionId: e.questionId, source: snapshotSource.get(e.snapshotId) ?? e.snapshotId, text: e.excerpt }] : [],
      ),
    ];
  }
}
