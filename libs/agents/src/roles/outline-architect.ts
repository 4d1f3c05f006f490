import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { statementStems } from '../offline/nlp/statement-terms';
import { cosine, tfidfVectors } from '../offline/nlp/tfidf';
import { stem, tokenize } from '../offline/nlp/tokens';
import { clip, feedbackPhrases, QUESTION_FILLER, titleCase, topicPhrases } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { AgentRole, ReferenceCheck } from './role';
import { Feedback, Id, Question, distinctIds, text } from './schemas';

export const OutlineArchitectInput = z
  .strictObject({
    question: Question,
    questions: z.array(z.strictObject({ id: Id, text: text(2000) })),
    claims: z.array(z.strictObject({ id: Id, statement: text(4000), questionId: Id.nullable() })),
    feedback: Feedback,
  })
  .superRefine(distinctIds('claims'));
export type OutlineArchitectInput = z.infer<typeof OutlineArchitectInput>;

export const PlannedSection = z.strictObject({ title: text(400), purpose: z.string().max(2000), claimIds: z.array(Id) });
/** A claim belongs to at most one section: checked with the ids (check), where a repeat can be dropped rather than fail. */
export const OutlineArchitectOutput = z.strictObject({ sections: z.array(PlannedSection).min(1).max(7) });
export type OutlineArchitectOutput = z.infer<typeof OutlineArchitectOutput>;

export const MIN_SECTIONS = 3;
export const MAX_SECTIONS = 7;
/** A claim without a question joins the question whose content words it shares most, from this share up. */
const QUESTION_MATCH = 0.34;
const FILLER_STEMS = new Set([...QUESTION_FILLER].map(stem));

type Claim = OutlineArchitectInput['claims'][number];
interface Group {
  claims: Claim[];
  /** Where the title comes from: a question, a reviewer's phrase, or the claims themselves. */
  topicSource: string;
  purpose: string;
}

function share(questionWords: readonly string[], claim: Set<string>): number {
  return questionWords.length === 0 ? 0 : questionWords.filter((w) => claim.has(w)).length / questionWords.length;
}

function groupClaims(input: OutlineArchitectInput): Group[] {
  const requested = input.feedback ? feedbackPhrases(input.feedback, 2) : [];
  const feedbackGroups: Group[] = requested.map((p) => ({ claims: [], topicSource: p, purpose: `Requested by the reviewer: ${p}.` }));
  const questionGroups: Group[] = input.questions.map((q) => ({ claims: [], topicSource: q.text, purpose: `Answers: ${q.text}` }));
  const questionWords = input.questions.map((q) => [...statementStems(q.text)].filter((w) => !FILLER_STEMS.has(w)));
  const clusters = new Map<string, Group>();

  for (const claim of input.claims) {
    const stems = statementStems(claim.statement);
    const asked = requested.findIndex((p) =>
      tokenize(p)
        .map(stem)
        .every((w) => stems.has(w)),
    );
    if (asked >= 0) {
      feedbackGroups[asked].claims.push(claim);
      continue;
    }
    const own = input.questions.findIndex((q) => q.id === claim.questionId);
    if (own >= 0) {
      questionGroups[own].claims.push(claim);
      continue;
    }
    const shares = questionWords.map((w) => share(w, stems));
    const best = shares.reduce((bi, s, i) => (s > (shares[bi] ?? -1) ? i : bi), -1);
    if (best >= 0 && shares[best] >= QUESTION_MATCH) {
      questionGroups[best].claims.push(claim);
      continue;
    }
    // Otherwise cluster by the head word of the claim's key phrase ("bridge costs" → "cost").
    const phrase = topicPhrases(claim.statement, 1)[0] ?? 'other findings';
    const head = stem(phrase.split(' ').at(-1) ?? phrase);
    const cluster = clusters.get(head) ?? { claims: [], topicSource: phrase, purpose: `Findings about ${phrase}.` };
    cluster.claims.push(claim);
    clusters.set(head, cluster);
  }
  return [...feedbackGroups, ...questionGroups, ...clusters.values()].filter((g) => g.claims.length > 0);
}

function groupText(g: Group): string {
  return g.claims.map((c) => c.statement).join(' ');
}

/** Merges the smallest group into the group most similar to it until at most MAX_SECTIONS remain. */
function mergeDown(groups: Group[]): void {
  while (groups.length > MAX_SECTIONS) {
    let smallest = 0;
    groups.forEach((g, i) => {
      if (g.claims.length < groups[smallest].claims.length) smallest = i;
    });
    const vectors = tfidfVectors(groups.map(groupText));
    let target = -1;
    let bestSimilarity = -1;
    groups.forEach((_, i) => {
      if (i === smallest) return;
      const sim = cosine(vectors[smallest], vectors[i]);
      if (sim > bestSimilarity) {
        bestSimilarity = sim;
        target = i;
      }
    });
    groups[target].claims.push(...groups[smallest].claims);
    groups.splice(smallest, 1);
  }
}

/** Splits the largest group in two around its two least similar claims until MIN_SECTIONS exist (or nothing splits). */
function splitUp(groups: Group[]): void {
  while (groups.length < MIN_SECTIONS) {
    let largest = 0;
    groups.forEach((g, i) => {
      if (g.claims.length > groups[largest].claims.length) largest = i;
    });
    const g = groups[largest];
    if (g.claims.length < 2) return;
    const vectors = tfidfVectors(g.claims.map((c) => c.statement));
    let far = 1;
    for (let i = 2; i < vectors.length; i++) if (cosine(vectors[0], vectors[i]) < cosine(vectors[0], vectors[far])) far = i;
    const keep: Claim[] = [];
    const move: Claim[] = [];
    g.claims.forEach((c, i) => {
      const toFar = i === far || (i !== 0 && cosine(vectors[i], vectors[far]) > cosine(vectors[i], vectors[0]));
      (toFar ? move : keep).push(c);
    });
    const phrase = topicPhrases(move.map((c) => c.statement).join(' '), 1)[0] ?? 'further findings';
    groups[largest] = { ...g, claims: keep };
    groups.splice(largest + 1, 0, {
      claims: move,
      topicSource: move.map((c) => c.statement).join(' '),
      purpose: `Findings about ${phrase}.`,
    });
  }
}

function titles(groups: readonly Group[]): string[] {
  const used = new Set<string>();
  return groups.map((g) => {
    const options = [...topicPhrases(g.topicSource, 3), ...topicPhrases(groupText(g), 3)].map((p) => clip(titleCase(p), 120));
    let title = options.find((t) => !used.has(t.toLowerCase())) ?? options[0] ?? 'Findings';
    for (let n = 2; used.has(title.toLowerCase()); n++) title = `${options[0] ?? 'Findings'} (${n})`;
    used.add(title.toLowerCase());
    return title;
  });
}

function offline(input: OutlineArchitectInput): OutlineArchitectOutput {
  const groups = groupClaims(input);
  if (groups.length === 0) {
    const topic = topicPhrases(input.question, 1)[0];
    return {
      sections: [{ title: topic ? titleCase(topic) : 'Overview', purpose: `Answers: ${clip(input.question, 1900)}`, claimIds: [] }],
    };
  }
  mergeDown(groups);
  splitUp(groups);
  const names = titles(groups);
  return { sections: groups.map((g, i) => ({ title: names[i], purpose: clip(g.purpose, 2000), claimIds: g.claims.map((c) => c.id) })) };
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
        'Each section has a short Title Case title, a one-sentence purpose, and the ids of the claims it must use.',
        'Every claim appears in at most one section; group claims that answer the same question or share a subject.',
        'Order sections so the report reads from context and basic facts to disputes and open issues.',
        'When reviewer feedback is given, restructure the outline as it asks.',
      ],
      output: OutlineArchitectOutput,
      data: [
        ['question', input.question],
        ['questions', listWithIds(input.questions)],
        ['claims', listWithIds(input.claims.map((c) => ({ id: c.id, text: c.statement })))],
        ...(input.feedback ? [['reviewer feedback', input.feedback] as const] : []),
      ],
    }),
  offline,
};
