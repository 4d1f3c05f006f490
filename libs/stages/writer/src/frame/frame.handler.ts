import {
  AgentRunner,
  documentVoice,
  explainsDifference,
  framer,
  mergeShortSections,
  openPoints,
  briefAnswer,
  reportOpenQuestions,
  verifyAndRepair,
  type CheckRecord,
  type SentenceToVerify,
  type VerificationFigures,
} from '@dossier/agents';
import { insertFrame, InterventionRepository, ResearchRepository, type Prisma } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { claimTerms, disputesAboutQuestion, runDisputes, selectDisagreements } from './disagreements';
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
    // The redraft's sections, not yet committed, replace their stored versions.
    // A section of one sentence joins its neighbour, as the renderer joins it (decision 0089); an interview's section
    // (titled by its analyst, outline.handler.ts) keeps its heading.
    const analysts = turns.length > 0 ? await this.research.latestPerspectives(tenantId, runId) : [];
    const memoTitles = new Set(analysts.flatMap((a) => [`${a.name}, ${a.role}`, `${`${a.name}, ${a.role}`.slice(0, 399)}…`]));
    const sections = mergeShortSections(
      stored.map((s) => redraft?.sections.get(s.sectionId) ?? s),
      (s) => memoTitles.has(s.title),
    );
    // What the report names as unanswered: one list, the method section's too (reportOpenQuestions, decision 0105).
    // A short section merged into its neighbour (0089) was answered there too.
    const unsettled = reportOpenQuestions({
      question: ctx.run.question,
      open: unanswered,
      interviewQuestionIds: new Set(turns.map((t) => t.questionId)),
      sectionTitles: [...stored.map((s) => s.title), ...sections.map((s) => s.title)],
    }).map((text) => ({ text }));
    const stopReason = ctx.run.stopReason ?? 'research complete';
    const evidence = await this.research.evidence(tenantId, runId);
    const excerpts = new Map(evidence.map((e) => [e.id, e.excerpt]));
    const withEvidence = (s: Sentence): SentenceToVerify => ({
      text: s.text,
      evidenceIds: s.evidenceIds,
      evidence: s.evidenceIds.flatMap((id) => (excerpts.has(id) ? [{ id, excerpt: excerpts.get(id)! }] : [])),
    });

    // "Where the sources disagree" first: its sentences are verified before the framer names the disputes as open, so
    // the conclusion names exactly the disputes the report shows. A disagreement is one paragraph: each side's
    // statement, then the reason a source gives if one really explains the difference, else what differs between the
    // sides in our own words (decision 0096).
    // The disputes the contradiction step paired and those it did not (decision 0087): the body states neither side.
    const body = sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text)));
    const inBody = new Set(body.map((b) => b.replace(/\s+/g, ' ').trim()));
    // Who wrote each source, for first-person sides and reasons (decision 0102).
    const snapshots = await this.research.snapshots(tenantId, [...new Set(evidence.map((e) => e.snapshotId))]);
    const voices = new Map(snapshots.map((s) => [s.id, documentVoice(s.text)]));
    // Only the disputes about the question: the run's sources hold others (decision 0166).
    const disputes = disputesAboutQuestion(
      ctx.run.question,
      selectDisagreements(
        runDisputes(contradictions, claims, claimTerms(claims, evidence, snapshots)),
        claims,
        evidence.map((e) => ({ id: e.id, excerpt: e.excerpt, voice: voices.get(e.snapshotId) ?? null })),
        body,
      ),
      claims.map((c) => c.statement),
    );
    // Our own words cite nothing: the guard checks them against the sides they describe.
    const ownWords = (k: number): SentenceToVerify => ({
      text: disputes[k]!.difference,
      evidenceIds: [],
      evidence: [],
      context: disputes[k]!.sides.map((c) => c.statement),
    });
    const disputeParts = disputes.flatMap((d, k) => [
      ...d.sides.map((c) => ({ dispute: k, side: true, sentence: withEvidence({ text: c.statement, evidenceIds: c.evidenceIds }) })),
      { dispute: k, side: false, sentence: d.reason ? withEvidence(d.reason) : ownWords(k) },
    ]);
    const disputesVerified = await verifyAndRepair(
      this.agents,
      disputeParts.map((p) => p.sentence),
      rounds,
      call,
    );
    // A reason that verification removed, or that a repair (the model's, with a model) turned into a sentence that no
    // longer explains the difference, gives way to our own words: the same check whatever engine wrote it.
    const keptReason = (k: number) => {
      const i = disputeParts.findIndex((p) => p.dispute === k && !p.side);
      const kept = disputesVerified.kept[i];
      if (!kept || !disputes[k]!.reason) return kept ?? null;
      const sides = disputes[k]!.sides.map((c) => c.statement);
      return explainsDifference(kept.text, sides, inBody) ? kept : null;
    };
    const fallback = disputes.flatMap((d, k) => (d.reason && keptReason(k) === null ? [k] : []));
    const fallbackVerified = fallback.length > 0 ? await verifyAndRepair(this.agents, fallback.map(ownWords), rounds, call) : null;
    // A disagreement needs two sides that survived verification; the reason or the difference follows them.
    const shown = disputes.flatMap((_, k) => {
      const sides = disputeParts.flatMap((p, i) =>
        p.dispute === k && p.side && disputesVerified.kept[i] ? [disputesVerified.kept[i]] : [],
      );
      if (sides.length < 2) return [];
      const at = fallback.indexOf(k);
      const closing = at >= 0 ? (fallbackVerified?.kept[at] ?? null) : keptReason(k);
      const sentences = [...sides, ...(closing ? [closing] : [])].map((s) => ({ text: s.text, evidenceIds: s.evidenceIds }));
      return [{ sides: sides.map((s) => s.text), reason: closing?.text ?? null, sentences }];
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
        openQuestions: unsettled.map((q) => q.text),
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
      ...unsettled.map((q) => q.text),
      ...shown.flatMap((d) => d.sides),
      // The answer in brief gives a disputed figure's basis from the dispute's closing sentence (decision 0127).
      ...shown.flatMap((d) => (d.reason ? [d.reason] : [])),
      stopReason,
      `${sections.length} sections, ${unsettled.length} open questions, ${shown.length} disputed points, ${ctx.run.options.maxIterations} iterations`,
      ...(feedback ? [feedback] : []),
    ];
    // A finding cites and is checked against its passages (guard and judge); a framing sentence cites nothing and is
    // checked by the guard against the context.
    const toVerify = (s: Sentence): SentenceToVerify =>
      s.evidenceIds.length > 0 ? withEvidence(s) : { text: s.text, evidenceIds: [], evidence: [], context };
    // What stays open closes the conclusion, written here from the run's facts whatever engine framed it (0037).
    const closing = openPoints({
      question: ctx.run.question,
      openQuestions: unsettled.map((q) => q.text),
      disputes: shown.map((d) => ({ sides: d.sides })),
    });
    // The answer in brief, in our words from the disputes the question asks about (0105), each disputed figure with its
    // basis, from the sides and the sentence closing the dispute (0127). It follows the question in the introduction
    // (0138: the introduction answers the question; it had listed facts while the answer closed the report), and the
    // conclusion says what stays open.
    const brief = briefAnswer({ question: ctx.run.question, disputes: shown.map((d) => ({ sides: d.sides, reason: d.reason })) });
    const parts = [
      ...[...out.introduction.slice(0, 1), ...brief, ...out.introduction.slice(1)].map((s) => ({
        part: 'introduction' as const,
        sentence: toVerify(s),
      })),
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
      figures: addFigures(addFigures(addFigures(verified.figures, disputesVerified.figures), fallbackVerified?.figures), redraft?.figures),
      checks: [
        ...disputesVerified.checks.map((c) => ({ ...c, part: 'disagreements' as const })),
        ...(fallbackVerified?.checks ?? []).map((c) => ({ ...c, part: 'disagreements' as const })),
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
