import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { relevanceModel } from '../offline/answer-relevance';
import { questionParts } from '../offline/question-parts';
import { normalizeWhitespace, statementStems } from '../offline/nlp/statement-terms';
import { stem, tokenize } from '../offline/nlp/tokens';
import { clip, feedbackPhrases, stemSet, titleCase } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
import { Feedback, Id, Question, distinctIds, text } from './schemas';

export const MIN_SECTIONS = 3;
/** Sections of themes or sub-questions; interview memos come on top. */
export const MAX_SECTIONS = 7;
/** At most one memo per analyst (RUN_OPTION_LIMITS.perspectives is 8). */
export const MAX_MEMOS = 10;
export const OutlineArchitectInput = z
  .strictObject({
    question: Question,
    questions: z.array(z.strictObject({ id: Id, text: text(2000) })),
    claims: z.array(z.strictObject({ id: Id, statement: text(4000), questionId: Id.nullable() })),
    /**
     * Interview memos (issue 14): one section per analyst, formed from what its expert cited. Their claims are in
     * `claims` too, so a reviewer's request can move one; each memo stays a section of its own, in its analyst's voice.
     */
    memos: z
      .array(z.strictObject({ title: text(400), purpose: z.string().max(2000), claimIds: z.array(Id) }))
      .max(MAX_MEMOS)
      .optional(),
    feedback: Feedback,
  })
  .superRefine(distinctIds('claims'));
export type OutlineArchitectInput = z.infer<typeof OutlineArchitectInput>;

export const PlannedSection = z.strictObject({ title: text(400), purpose: z.string().max(2000), claimIds: z.array(Id) });
/** A claim belongs to at most one section: checked with the ids (check), where a repeat can be dropped rather than fail. */
export const OutlineArchitectOutput = z.strictObject({
  sections: z
    .array(PlannedSection)
    .min(1)
    .max(MAX_SECTIONS + MAX_MEMOS),
});
export type OutlineArchitectOutput = z.infer<typeof OutlineArchitectOutput>;

/** The offline outline gives a section at most this many claims, its most direct answers first. */
export const MAX_CLAIMS_PER_SECTION = 12;
/**
 * A claim that covers less than this (weighted) share of the main question's terms, and answers no sub-question by
 * its kind either, is off topic: a fish-restocking announcement does not answer a question about water levels.
 */
const MIN_RELEVANCE = 0.2;
/** A section keeps claims scoring at least this share of its best claim: the tail that only shares a figure goes. */
const SECTION_FLOOR = 0.4;
/** A claim's own question (the one its evidence was found for) counts this much in its favour. */
const OWN_QUESTION_BONUS = 0.1;
/** Claims this similar (token Jaccard, figures included) say the same thing: the report states it once. */
const SAME_STATEMENT = 0.7;

type Claim = OutlineArchitectInput['claims'][number];
interface Group {
  claims: { claim: Claim; score: number }[];
  title: string;
  purpose: string;
}

function tokenSet(text: string): Set<string> {
  return new Set(tokenize(text).map(stem));
}

/** Restatements share most words and every figure: a different figure is a disagreement, not a repeat. */
function restates(a: Set<string>, b: Set<string>): boolean {
  const figures = (x: Set<string>) =>
    [...x]
      .filter((t) => /\d/.test(t))
      .sort()
      .join(' ');
  return figures(a) === figures(b) && jaccard(a, b) >= SAME_STATEMENT;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared === 0 ? 0 : shared / (a.size + b.size - shared);
}

const sameQuestion = (a: string, b: string) => normalizeWhitespace(a).toLowerCase() === normalizeWhitespace(b).toLowerCase();

/**
 * One section per sub-question, titled by it, in the order the questions were asked (the question's own clauses
 * first, then the perspectives'); the main question has a section of its own only when nothing else was asked. Each
 * claim goes to the sub-question it answers best; off-topic claims and restatements are left out; within a section
 * the most direct answers come first. Interview memos follow, each a section of its own with its claims. A reviewer's
 * feedback applies to both: a phrase that names a memo (its analyst, role or focus) moves that memo to the front; any
 * other phrase gets a section of its own, before the rest, holding the claims that state it, taken from the
 * sub-questions and the memos alike.
 */
function offline(input: OutlineArchitectInput): OutlineArchitectOutput {
  const memos = input.memos ?? [];
  const memoOf = new Map<string, number>();
  memos.forEach((m, i) => m.claimIds.forEach((id) => memoOf.set(id, i)));
  const model = relevanceModel(input.claims.map((c) => c.statement));
  // A question that asks several things is answered by its clauses' sections; one that asks one thing is itself the
  // first section.
  const several = questionParts(input.question).clauses.length > 1;
  const subQuestions = input.questions.filter((q) => !several || !sameQuestion(q.text, input.question));
  const asked = (subQuestions.length > 0 ? subQuestions : [{ id: '', text: input.question }]).slice(0, MAX_SECTIONS);
  const phrases = input.feedback ? feedbackPhrases(input.feedback, 2) : [];
  const memoStems = memos.map((m) => stemSet(`${m.title} ${m.purpose}`));
  const memoNamed = (phrase: string) => {
    const wanted = tokenize(phrase).map(stem);
    return memoStems.findIndex((ms) => wanted.length > 0 && wanted.every((w) => ms.has(w)));
  };
  const named = [...new Set(phrases.map(memoNamed).filter((i) => i >= 0))];
  const requested = phrases.filter((p) => memoNamed(p) < 0);
  const groups: Group[] = [
    ...requested.map((p) => ({ claims: [], title: clip(titleCase(p), 120), purpose: `Requested by the reviewer: ${p}.` })),
    ...asked.map((q) => ({ claims: [], title: clip(normalizeWhitespace(q.text), 400), purpose: clip(`Answers: ${q.text}`, 2000) })),
  ];
  const questionGroup = (i: number) => groups[requested.length + i];
  const taken = new Set<string>();

  for (const claim of input.claims) {
    const stems = statementStems(claim.statement);
    const wanted = requested.findIndex((p) =>
      tokenize(p)
        .map(stem)
        .every((w) => stems.has(w)),
    );
    if (wanted >= 0) {
      groups[wanted].claims.push({ claim, score: 1 });
      taken.add(claim.id);
      continue;
    }
    if (memoOf.has(claim.id)) continue;
    const scores = asked.map((q) => model.score(q.text, claim.statement) + (q.id === claim.questionId ? OWN_QUESTION_BONUS : 0));
    const best = scores.reduce((bi, sc, i) => (sc > scores[bi] ? i : bi), 0);
    const onTopic =
      model.coverage(input.question, claim.statement) >= MIN_RELEVANCE ||
      model.coverage(asked[best].text, claim.statement) >= MIN_RELEVANCE;
    if (onTopic) questionGroup(best).claims.push({ claim, score: scores[best] });
  }

  const stated: Set<string>[] = [];
  const grouped = groups.flatMap((g) => {
    const kept: Claim[] = [];
    const ranked = [...g.claims].sort((a, b) => b.score - a.score);
    const floor = (ranked[0]?.score ?? 0) * SECTION_FLOOR;
    for (const { claim, score } of ranked) {
      if (kept.length >= MAX_CLAIMS_PER_SECTION || score < floor) break;
      const tokens = tokenSet(claim.statement);
      if (stated.some((t) => restates(t, tokens))) continue;
      stated.push(tokens);
      kept.push(claim);
    }
    return kept.length > 0 ? [{ title: g.title, purpose: g.purpose, claimIds: kept.map((c) => c.id) }] : [];
  });
  // Every memo stays a section (its analyst's interview is in the report), less what a requested section took.
  const memoSection = (i: number) => ({ ...memos[i]!, claimIds: memos[i]!.claimIds.filter((id) => !taken.has(id)) });
  const sections = [...named.map(memoSection), ...grouped, ...memos.flatMap((_, i) => (named.includes(i) ? [] : [memoSection(i)]))];
  if (sections.length === 0)
    return {
      sections: [
        { title: clip(normalizeWhitespace(input.question), 400), purpose: clip(`Answers: ${input.question}`, 2000), claimIds: [] },
      ],
    };
  return { sections };
}

function check(input: OutlineArchitectInput, output: OutlineArchitectOutput): ReferenceCheck<OutlineArchitectOutput> {
  const known = new Set(input.claims.map((c) => c.id));
  const issues = unknownIdIssues(
    output.sections.flatMap((s) => s.claimIds),
    known,
    'sections use claim',
  );
  const seen = new Set<string>();
  let dropped = 0;
  const sections = output.sections.map((s, i) => {
    const claimIds = s.claimIds.filter((id) => {
      if (!known.has(id)) return false;
      if (seen.has(id)) {
        issues.push(`claim ${id} is in two sections (again in section ${i + 1})`);
        return false;
      }
      seen.add(id);
      return true;
    });
    dropped += s.claimIds.length - claimIds.length;
    return { ...s, claimIds };
  });
  // A memo the answer left out is put back at the end, with its claims no other section uses: each analyst's
  // interview keeps its section whatever the model did with the outline.
  for (const memo of input.memos ?? []) {
    if (sections.some((s) => s.title === memo.title)) continue;
    issues.push(`the interview memo "${clip(memo.title, 80)}" is not a section (keep every memo's title)`);
    sections.push({ ...memo, claimIds: memo.claimIds.filter((id) => !seen.has(id)) });
  }
  return { issues, cleaned: { sections }, dropped };
}

export const outlineArchitect: AgentRole<OutlineArchitectInput, OutlineArchitectOutput, 'outlineArchitect'> = {
  name: 'outlineArchitect',
  temperature: 0.3,
  input: OutlineArchitectInput,
  output: OutlineArchitectOutput,
  check,
  prompt: (input) =>
    buildPrompt({
      persona: 'Outline Architect',
      task: `Organise the claims into a report outline of ${MIN_SECTIONS} to ${MAX_SECTIONS} sections that together answer the research question.`,
      rules: [
        'One section per sub-question or theme, titled by what it answers (the sub-question itself, or a phrase drawn from it), with a one-sentence purpose and the ids of the claims it must use, the most direct answer first.',
        'Every claim appears in at most one section; group claims that answer the same question or share a subject.',
        'Order sections so the report reads from context and basic facts to disputes and open issues.',
        'When reviewer feedback is given, restructure the outline as it asks.',
      ],
      // Only some calls carry interview memos: their rule goes with the call, so the stable part stays identical.
      callRules: [
        ...(input.memos?.length
          ? [
              'Interview memos (see "interview memos") are sections already formed around one analyst each: keep every memo as a section with its exact title and purpose, in its analyst\'s voice, after the other sections unless the reviewer asks otherwise; move a claim out of a memo only when the reviewer asks for it.',
            ]
          : []),
      ],
      output: OutlineArchitectOutput,
      data: [
        ['question', input.question],
        ['questions', listWithIds(input.questions)],
        ['claims', listWithIds(input.claims.map((c) => ({ id: c.id, text: c.statement })))],
        ...(input.memos?.length
          ? [
              [
                'interview memos',
                input.memos.map((m) => `## ${m.title}\n${m.purpose}\nclaims: ${m.claimIds.join(', ') || '(none)'}`).join('\n\n'),
              ] as const,
            ]
          : []),
        ...(input.feedback ? [['reviewer feedback', input.feedback] as const] : []),
      ],
    }),
  offline,
};
