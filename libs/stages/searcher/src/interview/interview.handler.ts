import { AgentRunner, evidenceCurator, interviewAnalyst, interviewExpert } from '@dossier/agents';
import {
  ExecutionRepository,
  insertInterviewTurn,
  insertQuestion,
  keepEvidence,
  PrismaService,
  ResearchRepository,
  TenantRepository,
  type Prisma,
} from '@dossier/db';
import { classifyError, describeError, ReplayAnswerMissingError, StageStateError } from '@dossier/errors';
import { assertExcerpt, fetchSnapshot, isAllowedByPolicy, searchAll, SnapshotStore, SourcePolicySchema } from '@dossier/sources';
import { createLogger } from '@dossier/telemetry';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { SearchProviders } from '../providers/search-providers';
import { WebFetcher } from '../providers/web-fetcher';
import { stableUuid } from './stable-id';

/** The sentences of a stored answer, as text (the analyst reads its own transcript only). */
function answerTexts(answer: unknown): string[] {
  return Array.isArray(answer) ? (answer as { text?: unknown }[]).flatMap((s) => (typeof s.text === 'string' ? [s.text] : [])) : [];
}

/** Search hits the expert reads per question (each one curated), and what it keeps of each. */
export const SOURCES_PER_TURN = 3;
const RESULTS_PER_TURN = 6;
const FRAGMENTS_PER_SOURCE = 4;
const ANSWER_SENTENCES = 5;

/**
 * One turn of one analyst's interview (shard = the analyst's place in the approved panel, iteration = the turn; decision
 * 0024). The analyst asks from its focus and what its own earlier turns left open; the expert searches the run's
 * sources with that question, the Evidence Curator takes exact excerpts (offsets checked against the snapshot, stored
 * like all evidence, at the research pass after the survey's), and the expert answers only from them, every sentence
 * cited. The question is a research question of the analyst, so coverage, claims and verification treat it like any.
 * Ids of the question and its evidence derive from the run, shard, turn and passage: a turn run again after a crash sends
 * the same requests, whose answers are reused, not paid again.
 */
@OnStep('interview')
export class InterviewHandler implements StepHandler<'interview'> {
  private readonly logger = createLogger('interview');
  private readonly snapshots = new SnapshotStore();

  constructor(
    private readonly prisma: PrismaService,
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    private readonly executions: ExecutionRepository,
    private readonly providers: SearchProviders,
    private readonly web: WebFetcher,
    private readonly tenants: TenantRepository,
  ) {}

  async execute(ctx: StepContext<'interview'>): Promise<StepOutcome<'interview'>> {
    const { tenantId, runId } = ctx;
    const { iteration: turn, shard } = ctx.job;
    const options = ctx.run.options;
    const analyst = (await this.research.latestPerspectives(tenantId, runId))[shard];
    if (!analyst) throw new StageStateError(`No analyst for interview shard ${shard}`, { runId });
    const earlier = (await this.research.interviewTurns(tenantId, runId, shard)).filter((t) => t.turn < turn);
    const moderated = await this.executions.latestIteration(tenantId, runId, 'moderate');
    const pass = moderated === null ? 0 : moderated + 1;
    const previousQuestion = earlier.at(-1)?.questionId ?? null;

    const open =
      turn === 0 && options.mode === 'hybrid'
        ? (await this.research.questions(tenantId, runId, undefined, ['open'])).filter(
            (q) => q.perspectiveId === null || q.perspectiveId === analyst.id,
          )
        : [];
    const asked = await this.agents.run(
      interviewAnalyst,
      {
        question: ctx.run.question,
        analyst: { name: analyst.name, role: analyst.role, focus: analyst.focus },
        turn,
        turns: options.interviewTurns,
        transcript: earlier.map((t) => ({ question: t.question, answer: answerTexts(t.answer) })),
        openQuestions: open.slice(0, 12).map((q) => ({ id: q.id, text: q.text })),
      },
      ctx.call,
    );
    const questionId = stableUuid(runId, 'interview', shard, turn);

    // The expert's search: every provider of the run; the query is the analyst's question, in interviews mode within
    // the research question (an offline analyst's "what do the sources say about costs …?" names little of the
    // question's subject, and passage-level search ranks by the words the query holds: decision 0038). In hybrid mode
    // the analyst asks from the survey's open questions, which carry their own subject. Kept as a mode rule after
    // measuring the alternatives (decision 0038, "Interview queries"): without it, each offline analyst tried that carried
    // more of the research question's words lowered a recall on lake-varen or failed a demo test (no interview citing
    // both sides of a dispute); appended in hybrid too, the regulator's memo of the demo run kept no uncontested claim
    // (hybrid's later turns must stay on the analyst's angle). There is no shared query builder to move it into: the
    // query planner's anchoring is inside a role, and calling that role per turn would add a model request.
    const tenant = await this.tenants.find(tenantId);
    const tenantPolicy = tenant?.policy as { searchProviders?: string[]; sources?: unknown } | null;
    const sourcePolicy = SourcePolicySchema.parse(tenantPolicy?.sources ?? {});
    const { hits } = await searchAll(this.providers.forRun(options.searchProviders, runId, tenantPolicy?.searchProviders), {
      tenantId,
      query: options.mode === 'interviews' ? `${asked.question} ${ctx.run.question}` : asked.question,
      limit: RESULTS_PER_TURN,
      ...(options.collection ? { collection: options.collection } : {}),
    });
    // Snapshots are stored outside the step's transaction, as retrieve and source policy do (decision 0012).
    const read: { id: string; title: string; text: string }[] = [];
    for (const hit of hits) {
      if (read.length >= SOURCES_PER_TURN) break;
      if (!isAllowedByPolicy(hit.canonicalUrl, sourcePolicy).allowed) continue;
      try {
        const snapshot = hit.documentId
          ? await this.snapshots.fromDocument(this.prisma, tenantId, hit.documentId)
          : (await fetchSnapshot(this.prisma, { tenantId, url: hit.canonicalUrl, fetcher: this.web.fetcher })).snapshot;
        if (!read.some((r) => r.id === snapshot.id)) read.push({ id: snapshot.id, title: snapshot.title, text: snapshot.text });
      } catch (err) {
        // A replay whose recording lacks the page must stop, not go on with other sources than the original had.
        if (err instanceof ReplayAnswerMissingError) throw err;
        this.logger.warn(
          { url: hit.canonicalUrl, err: describeError(err), retryable: classifyError(err) === 'retryable' },
          'source skipped',
        );
      }
    }

    const fragments: {
      id: string;
      snapshotId: string;
      excerpt: string;
      start: number;
      end: number;
      statement: string;
      confidence: number;
    }[] = [];
    // The sources are read independently: their curator calls go out together (a turn waits for the slowest, not
    // the sum; decision 0036), and their fragments are taken in the order of the sources.
    const curated = await Promise.all(
      read.map((source) =>
        this.agents.run(
          evidenceCurator,
          { question: ctx.run.question, questions: [{ id: questionId, text: asked.question }], source, maxFragments: FRAGMENTS_PER_SOURCE },
          ctx.call,
        ),
      ),
    );
    // Two sources that state a sentence in the same words (a press release quoted by a report) give the expert
    // the same text twice: it is sent once, from the better-ranked source (decision 0036: no evidence text twice).
    const seen = new Set<string>();
    for (const [i, source] of read.entries()) {
      for (const f of curated[i]!.fragments) {
        const excerpt = source.text.slice(f.start, f.end);
        assertExcerpt(source.text, excerpt, f.start, f.end);
        const said = excerpt.replace(/\s+/g, ' ').trim().toLowerCase();
        if (seen.has(said)) continue;
        seen.add(said);
        fragments.push({
          id: stableUuid(runId, source.id, f.start, f.end),
          snapshotId: source.id,
          excerpt,
          start: f.start,
          end: f.end,
          statement: f.statement,
          confidence: f.confidence,
        });
      }
    }
    const answer = await this.agents.run(
      interviewExpert,
      {
        question: ctx.run.question,
        analyst: { name: analyst.name, role: analyst.role, focus: analyst.focus },
        asked: asked.question,
        evidence: fragments.map((f) => ({ id: f.id, excerpt: f.excerpt })),
        maxSentences: ANSWER_SENTENCES,
      },
      ctx.call,
    );
    const closed = asked.last || answer.sentences.length === 0;
    const cited = new Set(answer.sentences.flatMap((s) => s.evidenceIds));
    const kept = fragments.filter((f) => cited.has(f.id));

    return {
      // One search per turn, always: a turn that read nothing still says so (issue 28: "0 queries" in interviews mode).
      result: { queries: 1, sources: read.length, evidence: kept.length, sentences: answer.sentences.length, closed },
      write: async (tx) => {
        await insertQuestion(tx, {
          id: questionId,
          tenantId,
          runId,
          parentId: previousQuestion ?? asked.openQuestionId,
          perspectiveId: analyst.id,
          iteration: pass,
          text: asked.question,
          priority: 50,
        });
        // A passage another interview (or the survey) stored already keeps its row: the answer cites that row.
        const idOf = new Map<string, string>();
        for (const f of kept) {
          const { id, ...rest } = f;
          idOf.set(id, await keepEvidence(tx, { id, tenantId, runId, questionId, iteration: pass, ...rest }));
        }
        await insertInterviewTurn(tx, {
          tenantId,
          runId,
          perspectiveId: analyst.id,
          shard,
          turn,
          questionId,
          question: asked.question,
          answer: answer.sentences.map((s) => ({
            text: s.text,
            evidenceIds: s.evidenceIds.map((id) => idOf.get(id)!),
          })) as Prisma.InputJsonValue,
          closed,
        });
      },
    };
  }
}
