import { AgentRunner, evidenceCurator, namedByQuestion } from '@dossier/agents';
import { insertEvidence, ResearchRepository } from '@dossier/db';
import { StageStateError } from '@dossier/errors';
import { assertExcerpt } from '@dossier/sources';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

export const FRAGMENTS_PER_SOURCE = 12;
/**
 * The best-ranked sources of an iteration (extract shards are numbered in rank order), and every source that was the
 * first hit of one of its queries, are read four times as deeply: in a manual, the page that answers the question
 * holds most of the answer's facts, and 12 sentences of it were too few. Fused rank favours a page found by many
 * queries, so the page that is every on-topic query's first hit can come fourth (docs/decisions/0039).
 */
export const DEEP_READ_SOURCES = 2;
export const FRAGMENTS_PER_DEEP_SOURCE = 48;

/**
 * Evidence Curator over one selected source (one shard): exact excerpts with their offsets. Every excerpt
 * is checked, before it is written, to equal the snapshot's text between its offsets.
 */
@OnStep('extract')
export class ExtractHandler implements StepHandler<'extract'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'extract'>): Promise<StepOutcome<'extract'>> {
    const { tenantId, runId } = ctx;
    const { iteration, shard } = ctx.job;
    const [record] = await this.research.sourceRecords(tenantId, runId, { iteration, selected: true, extractShard: shard });
    if (!record?.snapshotId)
      throw new StageStateError(`No selected source for extract shard ${shard} of iteration ${iteration}`, { runId });
    const [snapshot] = await this.research.snapshots(tenantId, [record.snapshotId]);
    if (!snapshot) throw new StageStateError(`Snapshot ${record.snapshotId} is missing`, { runId });
    const questions = await this.research.questions(tenantId, runId);
    const out = await this.agents.run(
      evidenceCurator,
      {
        question: ctx.run.question,
        questions: questions.map((q) => ({ id: q.id, text: q.text })),
        source: { id: snapshot.id, title: snapshot.title, text: snapshot.text },
        maxFragments:
          shard < DEEP_READ_SOURCES || record.rank === 1 || namedByQuestion(snapshot.title, ctx.run.question)
            ? FRAGMENTS_PER_DEEP_SOURCE
            : FRAGMENTS_PER_SOURCE,
      },
      ctx.call,
    );
    const fragments = out.fragments.map((f) => {
      const excerpt = snapshot.text.slice(f.start, f.end);
      assertExcerpt(snapshot.text, excerpt, f.start, f.end);
      return { ...f, excerpt };
    });
    return {
      result: { evidence: fragments.length },
      write: async (tx) => {
        await insertEvidence(
          tx,
          fragments.map((f) => ({
            tenantId,
            runId,
            snapshotId: snapshot.id,
            questionId: f.questionId,
            iteration,
            excerpt: f.excerpt,
            start: f.start,
            end: f.end,
            statement: f.statement,
            confidence: f.confidence,
          })),
        );
      },
    };
  }
}
