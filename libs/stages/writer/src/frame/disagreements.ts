import {
  attributed,
  commonTerm,
  contentStems,
  describeDifference,
  explainsDifference,
  fromDistinctSources,
  keptAnalyses,
  opposingPairs,
  passageTerms,
  placesDisputedOnset,
  pointsBack,
  quotedWithSpeaker,
  readerSentence,
  relevanceModel,
  splitUnits,
  statesStatement,
  stem,
  tokenize,
  differentTerms,
  type SourcePassage,
} from '@dossier/agents';
import type { ClaimRow, ContradictionRow } from '@dossier/db';

/**
 * A dispute is about the question when one of its sides covers at least this share of what the best dispute covers of
 * the question's own terms (its setting's names left out), as the outline's relevance floor keeps claims.
 */
const QUESTION_FLOOR = 0.3;

/** At most this many positions of one disagreement are shown: the best-supported ones. */
export const MAX_SIDES = 3;
/** Claims this similar (token Jaccard) with the same figures state the same position. */
const SAME_POSITION = 0.7;
/**
 * Words with which sources say why figures or verdicts differ: a different reference, method, definition or scope.
 * Strong cues name the difference itself; weak ones only say how a figure was made.
 */
const STRONG_CUE =
  /\b(?:differs?|differ(?:ence|ences|ent|ed)|because|whereas|reasons?|depends? on|choice of|different question|comes? (?:almost entirely |mainly |largely )?from)\b/gi;
const WEAK_CUE =
  /\b(?:reference level|annual (?:mean|average)|smooths?|once [^.]{0,60}counted|compared? with|treats?|measured (?:as|from|at)|includ(?:e|es|ing))\b/gi;

export interface Disagreement {
  /** The positions, each a claim: two or more, best supported first. */
  sides: ClaimRow[];
  /**
   * A sentence of the run's evidence saying why the positions differ, only when one passes `explainsDifference`
   * (decision 0096): it names how the figures were made, shares the disputed subject and is not a body sentence.
   */
  reason: { text: string; evidenceIds: string[] } | null;
  /** In our own words, what differs between the positions: shown when no source says why (`describeDifference`). */
  difference: string;
}

interface EvidenceText {
  id: string;
  excerpt: string;
  /** Who wrote its source, in our words (`documentVoice`): a first-person sentence is attributed to it (decision 0102). */
  voice?: string | null;
}

/** A text's stems, kept per text (decision 0157): every claim of a run is compared with every side of its disputes. */
const tokens = keptAnalyses((text: string): ReadonlySet<string> => new Set(tokenize(text).map(stem)));

/** Two claims state the same position: nearly the same words and every figure the same. */
export function samePosition(a: string, b: string): boolean {
  const x = tokens(a);
  const y = tokens(b);
  const figures = (s: ReadonlySet<string>) =>
    [...s]
      .filter((t) => /\d/.test(t))
      .sort()
      .join(' ');
  if (figures(x) !== figures(y)) return false;
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  return shared > 0 && shared / (x.size + y.size - shared) >= SAME_POSITION;
}

/**
 * The same first figure ("average 38 million cubic metres" / "average 38 million cubic metres, and in 2022 our members
 * drew only 31 million"): with most words in common, the second states the first's position again, whatever else it
 * adds (a side shown twice, decision 0102).
 */
function sameLeadFigure(a: string, b: string): boolean {
  const lead = (s: string) => /\d[\d,.]*/.exec(s)?.[0].replace(/[,.]$/, '') ?? null;
  const x = lead(a);
  return x !== null && x === lead(b);
}

/** Most of the shorter statement's content terms are in the longer: with no contradiction between them, one position. */
function mostlyContains(a: string, b: string): boolean {
  const [x, y] = [new Set(contentStems(a).filter((t) => !/\d/.test(t))), new Set(contentStems(b).filter((t) => !/\d/.test(t)))];
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  if (small.size === 0) return false;
  return [...small].filter((t) => large.has(t)).length / small.size >= SAME_POSITION;
}

/**
 * The claims the body leaves to "Where the sources disagree": both sides of every contradiction, and claims that
 * restate one of them or state one among other things ("fell by 6.1 metres between 2015 and 2024, from a spring
 * maximum of …"), so no two sentences that contradict each other stand side by side in a section.
 */
export function contestedClaimIds(contradictions: readonly ClaimPair[], claims: readonly ClaimRow[]): Set<string> {
  const sides = new Set(contradictions.flatMap((c) => [c.claimAId, c.claimBId]));
  const statements = claims.filter((c) => sides.has(c.id)).map((c) => c.statement);
  const byId = new Map(claims.map((c) => [c.id, c.statement]));
  // A start the sources date differently: any claim dating that start takes a side (decision 0166).
  const onsets = contradictions.map((p) => [byId.get(p.claimAId) ?? '', byId.get(p.claimBId) ?? '']);
  return new Set(
    claims
      .filter(
        (c) =>
          sides.has(c.id) ||
          statements.some((s) => samePosition(s, c.statement) || statesStatement(c.statement, s)) ||
          onsets.some((pair) => placesDisputedOnset(c.statement, pair)),
      )
      .map((c) => c.id),
  );
}

/** The term each claim's passages all stand under in their sources, by claim id (decision 0154; `claimTerms`). */
export type ClaimTerms = ReadonlyMap<string, string | null>;

/**
 * The term each claim describes: the one all its passages stand under in their sources (`commonTerm`), from the
 * sources' texts. A claim whose passages stand under none, or under several, has none.
 */
export function claimTerms(
  claims: readonly Pick<ClaimRow, 'id' | 'evidenceIds'>[],
  evidence: readonly SourcePassage[],
  snapshots: readonly { id: string; text: string }[],
): ClaimTerms {
  const terms = passageTerms(evidence, new Map(snapshots.map((s) => [s.id, s.text])));
  return new Map(claims.map((c) => [c.id, commonTerm(c.evidenceIds, terms)]));
}

/** Two claims that disagree: a contradiction the run recorded, or a pair found when writing. */
export type ClaimPair = Pick<ContradictionRow, 'claimAId' | 'claimBId'>;

/**
 * The run's disputes as the report treats them (decision 0087): the contradictions the contradiction step recorded,
 * then every other pair of the run's claims that says opposite things about the same subject (a figure, a date,
 * polarity, an onset), which that step did not pair because vector search never proposed it. Neither side of either is
 * stated in the body; both are shown in "Where the sources disagree". A dispute is between sources (decision 0098):
 * a pair whose sides all come from one source is none, recorded or not (a run recorded before that rule included).
 */
export function runDisputes(
  contradictions: readonly ClaimPair[],
  claims: readonly Pick<ClaimRow, 'id' | 'statement' | 'sourceIds'>[],
  terms?: ClaimTerms,
): ClaimPair[] {
  const sourcesOf = new Map(claims.map((c) => [c.id, c.sourceIds]));
  // Between sources (0098), and about one thing: two claims describing different terms of a manual (an option and a
  // setting) say nothing against each other (decision 0154).
  const between = (p: ClaimPair) =>
    fromDistinctSources(sourcesOf.get(p.claimAId) ?? [], sourcesOf.get(p.claimBId) ?? []) &&
    !differentTerms(terms?.get(p.claimAId), terms?.get(p.claimBId));
  const paired = new Set(contradictions.flatMap((c) => [`${c.claimAId} ${c.claimBId}`, `${c.claimBId} ${c.claimAId}`]));
  const unpaired = opposingPairs(
    claims.map((c) => c.statement),
    claims.map((c) => c.sourceIds),
  )
    .map(([a, b]) => ({ claimAId: claims[a]!.id, claimBId: claims[b]!.id }))
    .filter((p) => !paired.has(`${p.claimAId} ${p.claimBId}`) && between(p));
  return [...contradictions.filter(between), ...unpaired];
}

/** Groups of claims linked by contradictions (union-find), in the order their first contradiction comes. */
function components(contradictions: readonly ClaimPair[]): string[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const c of contradictions) {
    for (const id of [c.claimAId, c.claimBId]) if (!parent.has(id)) parent.set(id, id);
    parent.set(find(c.claimAId), find(c.claimBId));
  }
  const groups = new Map<string, string[]>();
  for (const c of contradictions) {
    for (const id of [c.claimAId, c.claimBId]) {
      const g = groups.get(find(id)) ?? [];
      if (!g.includes(id)) g.push(id);
      groups.set(find(id), g);
    }
  }
  return [...groups.values()];
}

/** The sentence of the run's evidence that best says why the sides differ, or null. */
function reasonFor(
  sides: readonly ClaimRow[],
  evidence: readonly EvidenceText[],
  common: ReadonlySet<string>,
  used: Set<string>,
  body: ReadonlySet<string>,
): Disagreement['reason'] {
  const sideStatements = sides.map((s) => s.statement.toLowerCase());
  // The disputed subject: the sides' content terms, figures included, without those every dispute shares ("lake").
  const subject = new Set(sides.flatMap((s) => contentStems(s.statement)).filter((t) => !common.has(t)));
  let best: { text: string; id: string; score: number } | null = null;
  for (const e of evidence) {
    const units = splitUnits(e.excerpt);
    for (const [k, unit] of units.entries()) {
      if (unit.kind !== 'sentence') continue;
      // A whole quotation is its speaker's words, or no reason at all (decision 0105).
      const quoted = quotedWithSpeaker(unit.text, units[k - 1]?.text, units[k + 1]?.text);
      // A document saying what it explains ("This note explains … why different organisations publish different
      // figures") names no reason; boilerplate and fragments are never a reason (decision 0046).
      const shown = quoted === null ? null : readerSentence(quoted);
      // A first-person reason ("Our conclusion differs …") is its source's, in our words, or none (decision 0102).
      const text = shown === null ? null : quoted !== unit.text ? shown : attributed(shown, e.voice);
      if (text === null) continue;
      const strong = text.match(STRONG_CUE)?.length ?? 0;
      const weak = text.match(WEAK_CUE)?.length ?? 0;
      if (strong === 0) continue;
      const lower = text.toLowerCase();
      if (sideStatements.some((s) => s.includes(lower) || lower.includes(s))) continue;
      if (used.has(text) || sides.some((s) => samePosition(s.statement, text))) continue;
      // A cue of causation is not a reason: the sentence must say how the figures were made (decision 0096).
      if (
        !explainsDifference(
          text,
          sides.map((s) => s.statement),
          body,
        )
      )
        continue;
      const shared = new Set(contentStems(text).filter((t) => subject.has(t))).size;
      if (shared === 0) continue;
      // What the reason is about weighs more than how many cue words it has.
      const score = Math.min(strong, 2) * 0.5 + 0.25 * Math.min(weak, 2) + shared / Math.max(1, subject.size);
      if (best === null || score > best.score) best = { text, id: e.id, score };
    }
  }
  if (!best) return null;
  used.add(best.text);
  return { text: best.text, evidenceIds: [best.id] };
}

/**
 * "Where the sources disagree": one entry per disputed subject (claims linked by contradictions), with its distinct
 * positions, best supported first, and the reason they differ where a source says it. Entries come in the order of
 * their first contradiction (by content, so equal runs give equal reports); a claim without evidence is not shown.
 */
export function selectDisagreements(
  contradictions: readonly ClaimPair[],
  claims: readonly ClaimRow[],
  evidence: readonly EvidenceText[] = [],
  body: readonly string[] = [],
): Disagreement[] {
  const byId = new Map(claims.map((c) => [c.id, c]));
  const voiceOf = new Map(evidence.map((e) => [e.id, e.voice]));
  const groups: ClaimRow[][] = [];
  const opposed = (a: ClaimRow, b: ClaimRow) =>
    contradictions.some((x) => (x.claimAId === a.id && x.claimBId === b.id) || (x.claimAId === b.id && x.claimBId === a.id));
  for (const ids of components(contradictions)) {
    const known = ids.flatMap((id) => {
      const c = byId.get(id);
      // A side is shown as its statement: one that is boilerplate or a fragment is not a position (decision 0046).
      if (!c || c.evidenceIds.length === 0) return [];
      const read = readerSentence(c.statement);
      // A first-person side is its source's position, in our words, or not shown (decision 0102).
      const shown = read === null ? null : attributed(read, c.evidenceIds.map((id) => voiceOf.get(id)).find((v) => v) ?? null);
      // A side opening with a pronoun ("It reports that rainfall …") points at a sentence of its source the reader does
      // not see: not shown (decision 0124).
      return shown === null || pointsBack(shown) !== null ? [] : [{ ...c, statement: shown }];
    });
    const ranked = [...known].sort((a, b) => b.evidenceIds.length - a.evidenceIds.length || ids.indexOf(a.id) - ids.indexOf(b.id));
    const sides: ClaimRow[] = [];
    for (const c of ranked) {
      if (sides.length >= MAX_SIDES) break;
      if (
        sides.some(
          (s) =>
            samePosition(s.statement, c.statement) ||
            ((!opposed(s, c) || sameLeadFigure(s.statement, c.statement)) && mostlyContains(s.statement, c.statement)),
        )
      )
        continue;
      // Every side shown must contradict one already shown, so the entry reads as one disagreement.
      if (sides.length > 0 && !sides.some((s) => opposed(s, c))) continue;
      sides.push(c);
    }
    if (sides.length >= 2) groups.push(sides);
  }
  // Terms in every dispute name the report's subject, not what a dispute is about.
  const termsOf = groups.map((g) => new Set(g.flatMap((c) => contentStems(c.statement))));
  const common = new Set([...(termsOf[0] ?? [])].filter((t) => groups.length > 1 && termsOf.every((set) => set.has(t))));
  const used = new Set<string>();
  const inBody = new Set(body.map((b) => b.replace(/\s+/g, ' ').trim()));
  return groups.map((sides) => ({
    sides,
    reason: reasonFor(sides, evidence, common, used, inBody),
    difference: describeDifference(sides.map((s) => s.statement)),
  }));
}

/**
 * The sentences "Where the sources disagree" will give as the reasons of the run's disputes, reserved for it: the body
 * does not state them (decision 0105). A reason the body already stated was passed over (0096), and a dispute whose
 * sources do explain the difference ("The difference from the authority's figure (18%) comes almost entirely from the
 * choice of reference level: mean versus minimum.") closed with "Neither the 27% nor the 18% figure says over which
 * period or on which basis it was measured." — false. The same choice as the frame step's, made before the body is
 * drafted.
 */
export function reservedReasons(
  contradictions: readonly ClaimPair[],
  claims: readonly ClaimRow[],
  evidence: readonly EvidenceText[],
  terms?: ClaimTerms,
): string[] {
  return selectDisagreements(runDisputes(contradictions, claims, terms), claims, evidence, []).flatMap((d) =>
    d.reason ? [d.reason.text] : [],
  );
}

/**
 * The disputes a report on `question` shows: those about it. A run reads every source its searches found, and a small
 * corpus answers every question with the same documents, so the run's disputes are the corpus's: a report on how far
 * the lake's level fell listed the fishing licences' and the irrigation volumes' disputes, named them in its answer in
 * brief and left them "open" in its conclusion (decision 0166). A dispute stays when one of its sides covers the
 * question's own terms (the setting's names, which every side shares, left out), at least `QUESTION_FLOOR` of the best
 * dispute's share; none stays when no side covers any. Weights are the run's claims' (`relevanceModel`): a term every
 * claim uses counts little.
 */
export function disputesAboutQuestion<D extends { sides: readonly { statement: string }[] }>(
  question: string,
  disputes: readonly D[],
  statements: readonly string[],
): D[] {
  const model = relevanceModel(statements);
  const scores = disputes.map((d) => Math.max(0, ...d.sides.map((s) => model.topicalCoverage(question, s.statement))));
  const best = Math.max(0, ...scores);
  return disputes.filter((_, k) => scores[k]! > 0 && scores[k]! >= best * QUESTION_FLOOR);
}
