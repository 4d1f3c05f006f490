import { InterventionRepository, PrismaService, ResearchRepository, RunRepository, type SourceRecordRow } from '@dossier/db';
import type { InterventionInput } from '@dossier/contracts';
import { StageStateError } from '@dossier/errors';
import { OnStep } from '@dossier/queue';
import { renderAll } from '@dossier/render';
import { interventionInput, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { buildReport } from './report-builder';

/** One applied intervention in words, for the report's method section. */
function describeIntervention(iteration: number, input: InterventionInput, records: readonly SourceRecordRow[]): string {
  const when = `after iteration ${iteration + 1}`;
  switch (input.type) {
    case 'add_question':
      return `question added ${when}: "${input.question}"`;
    case 'exclude_domain':
      return `sources from ${input.domain} excluded ${when}`;
    case 'exclude_source':
      return `source ${records.find((r) => r.id === input.sourceId)?.canonicalUrl ?? input.sourceId} excluded ${when}`;
    case 'narrow_scope':
      return `scope narrowed ${when}: "${input.scope}"`;
  }
}

/** Renders the verified report as Markdown, sanitized HTML and JSON, stored as the run's artifacts. */
@OnStep('render')
export class RenderHandler implements StepHandler<'render'> {
  constructor(
    private readonly prisma: PrismaService,
    private readonly research: ResearchRepository,
    private readonly runs: RunRepository,
    private readonly interventions: InterventionRepository,
  ) {}

  async execute(ctx: StepContext<'render'>): Promise<StepOutcome<'render'>> {
    const { tenantId, id: runId } = ctx.run;
    const run = await this.runs.find(tenantId, runId);
    if (!run) throw new StageStateError(`Run ${runId} is missing`, { runId });
    const where = { tenantId, runId };
    const [sections, frame, claims, contradictions, evidence, records, open, calls, searches, iterations, findings] = await Promise.all([
      this.research.verifiedSections(tenantId, runId),
      this.research.latestFrame(tenantId, runId),
      this.research.claims(tenantId, runId),
      this.research.contradictions(tenantId, runId),
      this.research.evidence(tenantId, runId),
      this.research.sourceRecords(tenantId, runId),
      this.research.questions(tenantId, runId, undefined, ['open', 'partial']),
      this.prisma.llmCall.aggregate({ where, _count: true, _sum: { tokensIn: true, tokensOut: true, costUsd: true } }),
      this.prisma.searchPlan.count({ where }),
      this.prisma.nodeExecution.count({ where: { ...where, node: 'moderate', status: 'completed' } }),
      this.prisma.verificationFinding.findMany({ where, select: { round: true, verdict: true } }),
    ]);
    const lastRound = Math.max(0, ...findings.map((f) => f.round));
    const inLastRound = findings.filter((f) => f.round === lastRound);
    const interventions = (await this.interventions.applied(tenantId, runId)).map((row) => describeIntervention(row.appliedIteration ?? 0, interventionInput(row), records));
    const snapshots = await this.research.snapshots(tenantId, [...new Set(evidence.map((e) => e.snapshotId))]);
    const report = buildReport({
      run: {
        id: run.id,
        question: run.question,
        status: 'completed',
        engine: ctx.run.options.engine,
        createdAt: run.createdAt,
        stopReason: run.stopReason,
        providers: ctx.run.options.searchProviders,
        ...(ctx.run.options.collection ? { collection: ctx.run.options.collection } : {}),
      },
      intro: (frame?.introduction ?? []) as { text: string; evidenceIds: string[] }[],
      conclusion: (frame?.conclusion ?? []) as { text: string; evidenceIds: string[] }[],
      sections,
      claims,
      contradictions,
      evidence,
      snapshots,
      records,
      openQuestions: open.map((q) => q.text),
      interventions,
      metrics: {
        iterations,
        llmCalls: calls._count,
        tokensIn: calls._sum.tokensIn ?? 0,
        tokensOut: calls._sum.tokensOut ?? 0,
        costUsd: calls._sum.costUsd ?? 0,
        wallMs: Math.max(0, Date.now() - run.createdAt.getTime()),
        searches,
        sourcesFetched: records.filter((r) => r.selected).length,
      },
      verification: { checked: inLastRound.length, supported: inLastRound.filter((f) => f.verdict === 'supported').length, rounds: lastRound },
    });
    const artifacts = renderAll(report);
    return {
      result: { artifacts: 3 },
      write: async (tx) => {
        for (const [format, content] of Object.entries(artifacts)) {
          await tx.reportArtifact.upsert({
            where: { runId_format: { runId, format } },
            create: { tenantId, runId, format, content },
            update: { content },
          });
        }
      },
    };
  }
}
