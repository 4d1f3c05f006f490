import { InterviewAnswer, ReportMetrics, type BudgetKind } from '@dossier/contracts';
import type { z } from 'zod';
import {
  callNotes,
  callUsage,
  iterationsCompleted,
  queriesIssued,
  PrismaService,
  ReportArtifactRepository,
  ResearchRepository,
  verificationFigures,
  interventionInput,
} from '@dossier/db';
import { renderAll } from '@dossier/render';
import { reportOpenQuestions } from '@dossier/agents';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { InterventionRepository } from '@dossier/db';
import { describeIntervention } from './intervention-lines';
import { buildReport } from './report-builder';
import { hygieneDropped, llmUsage, modelOutputMetrics } from './usage-metrics';

/** The run's embeddings fallback (decision 0043), as report.json states it; a stored value of another shape is left out. */
function embeddingsFallback(value: unknown): { embeddingsFallback?: NonNullable<z.infer<typeof ReportMetrics>['embeddingsFallback']> } {
  if (value == null || typeof value !== 'object') return {};
  const v = value as Record<string, unknown>;
  const text = (x: unknown, max: number) => (typeof x === 'string' ? x.slice(0, max) : '');
  const parsed = ReportMetrics.shape.embeddingsFallback.safeParse({
    from: text(v['from'], 200),
    to: text(v['to'], 200),
    stepKey: text(v['stepKey'], 200),
    reason: text(v['reason'], 500),
  });
  return parsed.success && parsed.data ? { embeddingsFallback: parsed.data } : {};
}

/** Renders the verified report as Markdown, sanitized HTML, JSON and PDF, stored as the run's artifacts. */
@OnStep('render')
export class RenderHandler implements StepHandler<'render'> {
  constructor(
    private readonly prisma: PrismaService,
    private readonly research: ResearchRepository,
    private readonly interventions: InterventionRepository,
    private readonly artifacts: ReportArtifactRepository,
  ) {}

  async execute(ctx: StepContext<'render'>): Promise<StepOutcome<'render'>> {
    const { tenantId, runId } = ctx;
    // The run as the runner loaded it for this step (issue 26 item 4: handlers do not read it again).
    const run = ctx.run;
    const [sections, frame, claims, contradictions, evidence, records, open, calls, searches, iterations, verified, noted] =
      await Promise.all([
        this.research.verifiedSections(tenantId, runId),
        this.research.latestFrame(tenantId, runId),
        this.research.claims(tenantId, runId),
        this.research.contradictions(tenantId, runId),
        this.research.evidence(tenantId, runId),
        this.research.sourceRecords(tenantId, runId),
        this.research.questions(tenantId, runId, undefined, ['open', 'partial']),
        callUsage(this.prisma, tenantId, runId),
        // A search plan is one query of the survey; an interview turn issues one query of its own (issue 28).
        queriesIssued(this.prisma, tenantId, runId),
        iterationsCompleted(this.prisma, tenantId, runId),
        verificationFigures(this.prisma, tenantId, runId),
        callNotes(this.prisma, tenantId, runId),
      ]);
    const usage = llmUsage(calls);
    const modelOutput = modelOutputMetrics(noted);
    // The checks; the report's sentences and supported sentences are counted by the report builder (decision 0086).
    const { checked, failedByGuard, failedByJudge, repaired, removed, judgedByModel, judgedOffline, guardOnly, rounds } = verified;
    const verification = { checked, failedByGuard, failedByJudge, repaired, removed, judgedByModel, judgedOffline, guardOnly, rounds };
    const snapshots = await this.research.snapshots(tenantId, [...new Set(evidence.map((e) => e.snapshotId))]);
    const interventions = (await this.interventions.applied(tenantId, runId)).map((row) =>
      describeIntervention(row.appliedIteration ?? 0, interventionInput(row), records, { iterations, stopReason: run.stopReason }),
    );
    const interviews = await this.interviews(tenantId, runId);
    const report = buildReport({
      run: {
        id: run.id,
        question: run.question,
        status: 'completed',
        engine: ctx.run.options.engine,
        createdAt: run.createdAt,
        stopReason: run.stopReason,
        budgetExhausted: run.budgetExhausted,
        maxIterations: ctx.run.options.maxIterations,
        providers: ctx.run.options.searchProviders,
        ...(ctx.run.options.collection ? { collection: ctx.run.options.collection } : {}),
        ...(ctx.run.options.replay ? { replay: ctx.run.options.replay } : {}),
      },
      intro: (frame?.introduction ?? []) as { text: string; evidenceIds: string[] }[],
      conclusion: (frame?.conclusion ?? []) as { text: string; evidenceIds: string[] }[],
      ...(frame?.disagreements ? { disagreements: frame.disagreements as { sentences: { text: string; evidenceIds: string[] }[] }[] } : {}),
      sections,
      claims,
      interventions,
      contradictions,
      evidence,
      snapshots,
      records,
      // The conclusion's list (decision 0105): an analyst's question its expert's answer did not cover stays open like a
      // plan question (0037); not the report's own question, a section's, a follow-up or a template's.
      openQuestions: reportOpenQuestions({
        question: run.question,
        open,
        interviewQuestionIds: new Set((await this.research.interviewTurns(tenantId, runId)).map((t) => t.questionId)),
        sectionTitles: sections.map((s) => s.title),
      }),
      ...(interviews.length > 0 ? { interviews } : {}),
      metrics: {
        iterations,
        ...usage.total,
        budgetExhausted:
          run.stopReason === 'max_iterations'
            ? 'iterations'
            : run.stopReason === 'budget_exhausted'
              ? ((run.budgetExhausted as BudgetKind | null) ?? null)
              : null,
        byRole: usage.byRole,
        byModel: usage.byModel,
        byEngine: usage.byEngine,
        wallMs: Math.max(0, Date.now() - run.createdAt.getTime()),
        searches,
        // Interviews read sources without a source record: the sources their evidence came from count as read.
        sourcesFetched: Math.max(records.filter((r) => r.selected).length, new Set(evidence.map((e) => e.snapshotId)).size),
        verification,
        // The gate's own counts; the report builder adds its last pass and what the report still holds (decision 0041).
        ...(ctx.run.options.engine === 'offline'
          ? {}
          : { modelOutput, hygiene: { leaked: 0, duplicates: 0, fragments: 0, dropped: hygieneDropped(noted) } }),
        ...embeddingsFallback(run.embeddingsFallback),
      },
      verification: { rounds },
    });
    const files = await renderAll(report);
    return {
      result: { artifacts: Object.keys(files).length },
      write: (tx) => this.artifacts.save(tx, tenantId, runId, files),
    };
  }

  /** Each analyst's interview, turn by turn, for report.json (issue 14). */
  private async interviews(tenantId: string, runId: string) {
    const turns = await this.research.interviewTurns(tenantId, runId);
    if (turns.length === 0) return [];
    const analysts = await this.research.latestPerspectives(tenantId, runId);
    return analysts.flatMap((a, shard) => {
      const own = turns.filter((t) => t.shard === shard);
      if (own.length === 0) return [];
      return [
        {
          analyst: { name: a.name, role: a.role, focus: a.focus },
          // The outline titles an interview's section by its analyst (writer stage, outline.handler.ts).
          sectionTitle: `${a.name}, ${a.role}`,
          turns: own.map((t) => ({ question: t.question, answer: InterviewAnswer.parse(t.answer) })),
        },
      ];
    });
  }
}
