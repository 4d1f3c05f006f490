import type { AgentCallContext, AgentRunner } from '../agent-runner';
import { repairer, verifier } from '../roles';
import { describeGuardProblems, guardSentence, type GuardProblem } from './guard';

/*
 * Verification that bites (decision 0020): every sentence that states a fact goes through two independent checks — the
 * deterministic guard (figures, dates, units, names, negations must be in the cited passages) and the verifier role
 * judging entailment — and fails if either fails. Failing sentences go to the repairer with the finding; rewrites are
 * checked again; what still fails within the bound is removed. The body's loop runs through the workflow's verify and
 * repair nodes; framing and disagreement sentences, written after it, use verifyAndRepair here in one step.
 */

export type Verdict = 'supported' | 'unsupported' | 'contradicted' | 'uncited';

export interface SentenceToVerify {
  text: string;
  evidenceIds: string[];
  /** The excerpts the sentence cites (missing ids simply are not here: the sentence rests on what is). */
  evidence: { id: string; excerpt: string }[];
  /**
   * Framing sentences only: text they may repeat without citing (the question, the scope, the report's own outline).
   * A sentence with context and no citation is checked by the guard alone: it states no fact, or it fails.
   */
  context?: string[];
}

/** What both checks said about one sentence, and the verdict that counts. */
export interface SentenceCheck {
  verdict: Verdict;
  score: number;
  note: string;
  guard: GuardProblem[];
  /** The verifier role's verdict; null for a framing sentence without citations (nothing to judge against). */
  judge: Verdict | null;
  /**
   * Who gave the judge's verdict (decision 0040): the model, the offline engine in its place (an offline run, a spent
   * budget, an answer that stayed unusable), or nobody — the guard alone checked a framing sentence without citations.
   */
  judgedBy: JudgedBy;
}

export type JudgedBy = 'model' | 'offline' | 'guard';

const MAX_NOTE = 2000;

/** Both checks on every sentence: one guard pass each, one verifier call for all cited sentences. */
export async function verifySentences(
  agents: AgentRunner,
  sentences: readonly SentenceToVerify[],
  ctx: AgentCallContext,
): Promise<SentenceCheck[]> {
  const guards = sentences.map((s) =>
    guardSentence(
      s.text,
      s.evidence.map((e) => e.excerpt),
      s.context ? { context: s.context } : {},
    ),
  );
  const judged = sentences.flatMap((s, i) => (s.evidence.length > 0 ? [i] : []));
  const out = await agents.runTraced(
    verifier,
    { sentences: judged.map((i) => ({ text: sentences[i]!.text, evidence: sentences[i]!.evidence })) },
    ctx,
  );
  // The plays cover the judged sentences in order (several when an answer of the wrong shape was asked again in halves).
  const by = out.plays.flatMap((p) => p.input.sentences.map((): JudgedBy => (p.engine === 'offline' ? 'offline' : 'model')));
  const judgement = new Map(judged.map((i, k) => [i, { finding: out.output.findings[k]!, by: by[k] ?? 'offline' }]));
  return sentences.map((s, i) => {
    const guard = guards[i]!.problems;
    const judgedAs = judgement.get(i);
    const judge = judgedAs?.finding ?? null;
    const guardNote = guard.length > 0 ? `guard: ${describeGuardProblems(guard)}` : '';
    if (!judge) {
      // Uncited: a framing sentence that states nothing the guard can see is fine; anything else is uncited.
      if (s.context && guard.length === 0)
        return { verdict: 'supported', score: 1, note: 'framing: states no fact', guard, judge: null, judgedBy: 'guard' };
      return {
        verdict: 'uncited',
        score: 0,
        note: (guardNote || 'the sentence cites no evidence').slice(0, MAX_NOTE),
        guard,
        judge: null,
        judgedBy: 'guard',
      };
    }
    const judgeFailed = judge.verdict !== 'supported';
    const verdict: Verdict = judgeFailed ? judge.verdict : guard.length > 0 ? 'unsupported' : 'supported';
    const note = [guardNote, judgeFailed || guard.length === 0 ? `judge: ${judge.note}` : ''].filter(Boolean).join('; ');
    return {
      verdict,
      score: guard.length > 0 ? Math.min(judge.score, 0.5) : judge.score,
      note: note.slice(0, MAX_NOTE),
      guard,
      judge: judge.verdict,
      judgedBy: judgedAs!.by,
    };
  });
}

export interface VerifiedSentence {
  text: string;
  evidenceIds: string[];
  /** Rewritten by the repairer (and then passed). */
  repaired: boolean;
}

/** Every check made, for the record (report_frames.verification) and for measuring the checks. */
export interface CheckRecord {
  /** The position of the sentence in the input (a rewrite keeps its original's). */
  index: number;
  text: string;
  evidenceIds: string[];
  round: number;
  verdict: Verdict;
  guard: GuardProblem[];
  judge: Verdict | null;
  judgedBy: JudgedBy;
}

export interface VerifyAndRepairResult {
  /** Per input sentence: what stays (original or rewrite), or null when it was removed. */
  kept: (VerifiedSentence | null)[];
  checks: CheckRecord[];
  figures: VerificationFigures;
}

export interface VerificationFigures {
  checked: number;
  failedByGuard: number;
  failedByJudge: number;
  repaired: number;
  removed: number;
  /** Checks whose judge was the model, the offline engine, or nobody (the guard alone): decision 0040. */
  judgedByModel: number;
  judgedOffline: number;
  guardOnly: number;
}

/** Adds one check's judge to the figures. */
export function countJudge(figures: VerificationFigures, by: JudgedBy): void {
  if (by === 'model') figures.judgedByModel++;
  else if (by === 'offline') figures.judgedOffline++;
  else figures.guardOnly++;
}

export const NO_FIGURES: Readonly<VerificationFigures> = {
  checked: 0,
  failedByGuard: 0,
  failedByJudge: 0,
  repaired: 0,
  removed: 0,
  judgedByModel: 0,
  judgedOffline: 0,
  guardOnly: 0,
};

export interface RepairSource {
  /** Evidence a rewrite may use beyond what the sentence cites (e.g. the rest of its section's). */
  extraEvidence?: { id: string; excerpt: string }[];
}

/**
 * Verify, repair what fails with the repairer role, verify the rewrites, up to `rounds` repair rounds; what still
 * fails is removed. Nothing that failed verification is returned.
 */
export async function verifyAndRepair(
  agents: AgentRunner,
  sentences: readonly (SentenceToVerify & RepairSource)[],
  rounds: number,
  ctx: AgentCallContext,
): Promise<VerifyAndRepairResult> {
  const kept: (VerifiedSentence | null)[] = sentences.map(() => null);
  const checks: CheckRecord[] = [];
  const figures: VerificationFigures = { ...NO_FIGURES };
  let pending = sentences.map((s, i) => ({ index: i, sentence: s, repaired: false }));
  for (let round = 0; pending.length > 0; round++) {
    const results = await verifySentences(
      agents,
      pending.map((p) => p.sentence),
      ctx,
    );
    const failing: { index: number; sentence: SentenceToVerify & RepairSource; check: SentenceCheck }[] = [];
    results.forEach((check, k) => {
      const p = pending[k]!;
      checks.push({
        index: p.index,
        text: p.sentence.text,
        evidenceIds: p.sentence.evidenceIds,
        round,
        verdict: check.verdict,
        guard: check.guard,
        judge: check.judge,
        judgedBy: check.judgedBy,
      });
      figures.checked++;
      countJudge(figures, check.judgedBy);
      if (check.guard.length > 0) figures.failedByGuard++;
      if (check.judge !== null && check.judge !== 'supported') figures.failedByJudge++;
      if (check.verdict === 'supported') {
        kept[p.index] = { text: p.sentence.text, evidenceIds: p.sentence.evidenceIds, repaired: p.repaired };
        if (p.repaired) figures.repaired++;
      } else failing.push({ index: p.index, sentence: p.sentence, check });
    });
    pending = [];
    // Framing without citations cannot be rewritten from evidence: it goes; so does what fails after the last round.
    const repairable = failing.filter((f) => round < rounds && f.sentence.evidence.length > 0);
    figures.removed += failing.length - repairable.length;
    // The round's failing sentences in one repairer call, their evidence listed once (decision 0036).
    const byId = new Map<string, { id: string; excerpt: string }>();
    for (const f of repairable) {
      for (const e of [...f.sentence.evidence, ...(f.sentence.extraEvidence ?? [])]) if (!byId.has(e.id)) byId.set(e.id, e);
    }
    const { fixes } = await agents.run(
      repairer,
      {
        sentences: repairable.map((f) => ({
          text: f.sentence.text,
          evidenceIds: f.sentence.evidenceIds,
          finding: { verdict: f.check.verdict, note: f.check.note },
        })),
        evidence: [...byId.values()],
      },
      ctx,
    );
    for (const [k, f] of repairable.entries()) {
      const fix = fixes[k];
      if (fix?.action !== 'rewrite') {
        figures.removed++;
        continue;
      }
      pending.push({
        index: f.index,
        repaired: true,
        sentence: {
          ...f.sentence,
          text: fix.text,
          evidenceIds: fix.evidenceIds,
          evidence: fix.evidenceIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
        },
      });
    }
  }
  return { kept, checks, figures };
}
