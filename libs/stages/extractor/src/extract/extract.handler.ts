import { AgentRunner, evidenceCurator } from '@dossier/agents';
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

const plain = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** A page's name: its title up to a dash, a colon or a bracket ("git-commit(1) Manual Page" → "git-commit"). */
const PAGE_NAME = /^(.+?)(?:\s+(?:—|–|-{1,3}|::?)\s+|:\s|\(|$)/;
const MAX_NAME_WORDS = 3;

/**
 * Whether the question names the page: the page's name, written in lower case as a manual names a command, a module or
 * a function ("git-commit", "subprocess", "functools"), is a phrase of the question ("git commit --amend",
 * "subprocess.run"). Such a page documents what is asked, so it is read deep wherever it ranks: git-commit.html came
 * fifth for "How do I fix the last commit with git commit --amend" and was read 12 sentences deep (docs/decisions/0111).
 * A capitalised title ("Lake Varen: Frequently Asked Questions") names a setting, not a page the question asks about.
 */
export function namedByQuestion(title: string, question: string): boolean {
  const name = PAGE_NAME.exec(title.trim())?.[1]?.trim() ?? '';
  if (name.length === 0 || name !== name.toLowerCase() || !/\p{L}/u.test(name)) return false;
  const words = plain(name);
  if (words.length === 0 || words.split(' ').length > MAX_NAME_WORDS) return false;
  return ` ${plain(question)} `.includes(` ${words} `);
}

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
