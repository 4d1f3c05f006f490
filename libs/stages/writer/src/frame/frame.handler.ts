import {
  AgentRunner,
  framer,
  mergeShortSections,
  openPoints,
  verifyAndRepair,
  type CheckRecord,
  type SentenceToVerify,
  type VerificationFigures,
} from '@dossier/agents';
import { insertFrame, InterventionRepository, ResearchRepository, type Prisma } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { runDisputes, selectDisagreements } from './disagreements';
import { Redrafter, type Redraft } from './redraft';

/** The framer is given at most this many disputes to name as open (its input's limit). */
const MAX_NAMED_DISPUTES = 20;

interface Sentence {
  text: string;
  evidenceIds: string[];
}

/** What the frame step stored about its own verification (report_frames.verification). */
export interface FrameVerification {
  figures: VerificationFigures;
  checks: (CheckRecord & { part: 'introduction' | 'conclusion' | 'disagreements' })[];
  /** Sections redrafted for the reviewer's feedback, by position, and the verification round their new drafts are in. */
  redrafted: number[];
  round: number | null;
}

/**
 * Framer: introduction and conclusion, written from the verified sections, and the disagreements section; then every
 * one of their sentences is verified like the body's (guard + judge), repaired with the repairer or removed (decision
 * 0020). After a rejected publish gate, the reviewer's feedback goes to the framer, and the sections it names are
 * drafted again with it and verified before the frame is written.
 */
@OnStep('frame')
export class FrameHandler implements StepHandler<'frame'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
    private readonly interventions: InterventionRepository,
    private readonly redrafter: Redrafter,
  ) {}

  async execute(ctx: StepContext<'frame'>): Promise<StepOutcome<'frame'>> {
    const { tenantId, runId } = ctx;
    const call = ctx.call;
    const rounds = ctx.run.options.maxRepairRounds;
    const feedback = ctx.job.iteration > 0 ? await ctx.rejectionFeedback('publish') : null;
    const redraft: Redraft | null = feedback ? await this.redrafter.redraft(ctx, feedback) : null;
    const [stored, unanswered, rules, contradictions, claims, turns] = await Promise.all([
      this.research.verifiedSections(tenantId, runId),
      this.research.questions(tenantId, runId, undefined, ['open', 'partial']),
      this.interventions.appliedRules(tenantId, runId),
      this.research.contradictions(tenantId, runId),
      this.research.claims(tenantId, runId),
      this.research.interviewTurns(tenantId, runId),
    ]);
    // What stays open: the plan's questions and the analysts' (an interview's questions chain from one another), not
    // the research loop's follow-ups, which count for the question they follow up.
    const asked = new Set(turns.map((t) => t.questionId));
    // Two analysts can ask the same question: it is named, and counted, once.
    const seenText = new Set<string>();
    const open = unanswered.filter((q) => {
      if (q.parentId !== null && !asked.has(q.id)) return false;
      const key = q.text.trim().toLowerCase();
      if (seenText.has(key)) return false;
      seenText.add(key);
      return true;
    });
    // The redraft's sections, not yet committed, replace their stored versions.
    // A section of one sentence joins its neighbour, as the renderer joins it (decision 0089); an interview's section
    // (titled by its analyst, outline.handler.ts) keeps its heading.
    const analysts = turns.length > 0 ? await this.research.latestPerspectives(tenantId, runId) : [];
    const memoTitles = new Set(analysts.flatMap((a) => [`${a.name}, ${a.role}`, `${`${a.name}, ${a.role}`.slice(0, 399)}…`]));
    const sections = mergeShortSections(
      stored.map((s) => redraft?.sections.get(s.sectionId) ?? s),
      (s) => memoTitles.has(s.title),
    );
    const stopReason = ctx.run.stopReason ?? 'research complete';
    const evidence = await this.research.evidence(tenantId, runId);
    const excerpts = new Map(evidence.map((e) => [e.id, e.excerpt]));
    const withEvidence = (s: Sentence): SentenceToVerify => ({
      text: s.text,
      evidenceIds: s.evidenceIds,
      evidence: s.evidenceIds.flatMap((id) => (excerpts.has(id) ? [{ id, excerpt: excerpts.get(id)! }] : [])),
    });

    // "Where the sources disagree" first: its sentences are verified before the framer names the disputes as open, so
    // the conclusion names exactly the disputes the report shows. A disagreement's sentences: each side's statement,
    // then the reason the sources give, if any.
    // The disputes the contradiction step paired and those it did not (decision 0087): the body states neither side.
    const disputes = selectDisagreements(
      runDisputes(contradictions, claims),
      claims,
      evidence.map((e) => ({ id: e.id, excerpt: e.excerpt })),
    );
    const disputeParts = disputes.flatMap((d, k) => [
      ...d.sides.map((c) => ({ dispute: k, side: true, sentence: withEvidence({ text: c.statement, evidenceIds: c.evidenceIds }) })),
      ...(d.reason ? [{ dispute: k, side: false, sentence: withEvidence(d.reason) }] : []),
    ]);
    const disputesVerified = await verifyAndRepair(
      this.agents,
      disputeParts.map((p) => p.sentence),
      rounds,
      call,
    );
    // A disagreement needs two sides that survived verification; its reason is shown only beside them.
    const shown = disputes.flatMap((_, k) => {
      const own = disputeParts.flatMap((p, i) =>
        p.dispute === k && disputesVerified.kept[i] ? [{ side: p.side, s: disputesVerified.kept[i] }] : [],
      );
      const sides = own.filter((x) => x.side).map((x) => x.s.text);
      if (sides.length < 2) return [];
      return [{ sides, sentences: own.map(({ s }) => ({ text: s.text, evidenceIds: s.evidenceIds })) }];
    });
    const disagreements = shown.map((d) => ({ sentences: d.sentences }));

    const out = await this.agents.run(
      framer,
      {
        question: ctx.run.question,
        sections: sections.map((s) => ({
          title: s.title,
          sentences: s.paragraphs.flatMap((p) => p.sentences.map((x) => ({ text: x.text, evidenceIds: x.evidenceIds }))),
        })),
        stopReason,
        openQuestions: open.map((q) => q.text),
        disputes: shown.slice(0, MAX_NAMED_DISPUTES).map((d) => ({ sides: d.sides })),
        ...(rules.scopes.length > 0 ? { scope: rules.scopes } : {}),
        ...(feedback ? { feedback } : {}),
      },
      call,
    );

    // What a framing sentence may say without citing: the question, the scope, the report's own outline and limits,
    // the open questions and the disputed positions it names as open.
    const context = [
      ctx.run.question,
      ...rules.scopes,
      ...sections.map((s) => s.title),
      ...open.map((q) => q.text),
      ...shown.flatMap((d) => d.sides),
      stopReason,
      `${sections.length} sections, ${open.length} open questions, ${shown.length} disputed points, ${ctx.run.options.maxIterations} iterations`,
      ...(feedback ? [feedback] : []),
    ];
    // A finding cites and is checked against its passages (guard and judge); a framing sentence cites nothing and is
    // checked by the guard against the context.
    const toVerify = (s: Sentence): SentenceToVerify =>
      s.evidenceIds.length > 0 ? withEvidence(s) : { text: s.text, evidenceIds: [], evidence: [], context };
    // What stays open closes the conclusion, written here from the run's facts whatever engine framed it (0037).
    const closing = openPoints({ openQuestions: open.map((q) => q.text), disputes: shown.map((d) => ({ sides: d.sides })) });
    const parts = [
      ...out.introduction.map((s) => ({ part: 'introduction' as const, sentence: toVerify(s) })),
      ...[...out.conclusion, ...closing].map((s) => ({ part: 'conclusion' as const, sentence: toVerify(s) })),
    ];
    const verified = await verifyAndRepair(
      this.agents,
      parts.map((p) => p.sentence),
      rounds,
      call,
    );
    const kept = (part: string) =>
      parts.flatMap((p, i) =>
        p.part === part && verified.kept[i] ? [{ text: verified.kept[i].text, evidenceIds: verified.kept[i].evidenceIds }] : [],
      );
    const introduction = kept('introduction');
    const verification: FrameVerification = {
      figures: addFigures(addFigures(verified.figures, disputesVerified.figures), redraft?.figures),
      checks: [
        ...disputesVerified.checks.map((c) => ({ ...c, part: 'disagreements' as const })),
        ...verified.checks.map((c) => ({ ...c, part: parts[c.index]!.part })),
      ],
      redrafted: redraft?.positions ?? [],
      round: redraft?.round ?? null,
    };
    const revision = ctx.job.iteration;
    return {
      result: { sections: sections.length },
      write: async (tx) => {
        if (redraft) await redraft.write(tx);
        await insertFrame(tx, {
          tenantId,
          runId,
          revision,
          // Never without an introduction: the question itself frames the report if every sentence failed.
          introduction:
            introduction.length > 0 ? introduction : [{ text: `This report addresses the question: ${ctx.run.question}`, evidenceIds: [] }],
          conclusion: kept('conclusion'),
          disagreements: disagreements as unknown as Prisma.InputJsonValue,
          verification: verification as unknown as Prisma.InputJsonValue,
        });
      },
    };
  }
}

function addFigures(a: VerificationFigures, b: VerificationFigures | undefined): VerificationFigures {
  if (!b) return a;
  const sum = { ...a };
  for (const k of Object.keys(sum) as (keyof VerificationFigures)[]) sum[k] += b[k] ?? 0;
  return sum;
}
