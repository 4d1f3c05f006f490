import { z } from 'zod';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { relevanceModel } from '../offline/answer-relevance';
import { clip } from '../offline/topics';
import { unknownIdIssues } from './grounding';
import type { RoleDefinition, ReferenceCheck } from './role';
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
    claims: z.array(
      z.strictObject({
        id: Id,
        statement: text(4000),
        questionId: Id.nullable(),
        /** The sources (snapshots) its evidence comes from: a claim from the page that answers a question counts for more. */
        sourceIds: z.array(Id).max(50).optional(),
        /**
         * What its evidence stands under in its source (the term line or heading above it, the sentence before it): a
         * manual's "Any changes … are discarded" answers a question about --hard only with its label "--hard".
         */
        context: z.string().max(4000).optional(),
        /** The term line or heading its evidence is the first sentence under: what it defines. */
        defines: z.string().max(400).optional(),
        /** The heading its evidence sits under in its source (generic ones such as "Summary" passed over): a section's name. */
        heading: z.string().max(400).optional(),
        /**
         * The heading is its source's title (the document has no heading nearer the evidence): it names the whole
         * document, so it names a section only when it stands over half of the section's claims (decision 0102).
         */
        headingIsTitle: z.boolean().optional(),
        /**
         * Its evidence comes from the page the question names ("git restore" → git-restore(1); "subprocess.run" →
         * subprocess): the page that documents what is asked (decision 0131).
         */
        fromNamedPage: z.boolean().optional(),
      }),
    ),
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
  // A section is written from its claims: one without any would be a heading over nothing (decision 0040). It goes to
  // the repair request; still without claims after it, it is left out — and an outline left with no claim at all while
  // claims were given is unusable, so the call is played offline rather than the report written without a body.
  const memoTitles = new Set((input.memos ?? []).map((m) => m.title));
  sections.forEach((s, i) => {
    if (s.claimIds.length === 0 && !memoTitles.has(s.title) && input.claims.length > 0)
      issues.push(
        `section ${i + 1} ("${clip(s.title, 80)}") uses no claim: every section must list the ids of the claims it is written from`,
      );
  });
  const carrying = sections.filter((s) => s.claimIds.length > 0 || memoTitles.has(s.title));
  const usable = input.claims.length === 0 || carrying.some((s) => s.claimIds.length > 0);
  return { issues, cleaned: usable && carrying.length > 0 ? { sections: carrying } : null, dropped };
}

/**
 * The headings the claims' evidence sits under in the sources, each once with the ids of its claims (a heading per claim
 * would cost the prompt a line of tokens per claim): `"Preventing Transaction ID Wraparound Failures": C2, C3`; a
 * document's title is marked so (decision 0102).
 */
export function sourceHeadings(input: OutlineArchitectInput): string {
  const byHeading = new Map<string, { title: boolean; ids: string[] }>();
  for (const c of input.claims) {
    if (!c.heading) continue;
    const entry = byHeading.get(c.heading) ?? { title: false, ids: [] };
    entry.ids.push(c.id);
    entry.title ||= c.headingIsTitle === true;
    byHeading.set(c.heading, entry);
  }
  return [...byHeading]
    .map(([heading, { title, ids }]) => `"${heading.replace(/"/g, "'")}"${title ? ' (document title)' : ''}: ${ids.join(', ')}`)
    .join('\n');
}

/** The outline fitted to a window keeps at least this many claims besides the memos' (decision 0150). */
export const MIN_FITTED_CLAIMS = 12;
/** Each fitting step leaves out this share of the claims it may drop (at least one). */
const FIT_STEP = 0.2;

/**
 * The input without the claims that answer the question least (the memos' claims stay, and at least MIN_FITTED_CLAIMS
 * others): for a model whose window cannot hold every claim of the run, an outline of the best of them rather than no
 * report (decision 0150). Relevance as the offline outline scores it: the question's terms a claim covers, weighted by
 * rarity, its best over the question and the sub-questions; ties go to the claim with more sources, then the earlier.
 */
function fit(input: OutlineArchitectInput): OutlineArchitectInput | null {
  const inMemos = new Set((input.memos ?? []).flatMap((m) => m.claimIds));
  const free = input.claims.filter((c) => !inMemos.has(c.id));
  const drop = Math.min(free.length - MIN_FITTED_CLAIMS, Math.max(1, Math.floor(free.length * FIT_STEP)));
  if (drop <= 0) return null;
  const model = relevanceModel(input.claims.map((c) => c.statement));
  const asked = [input.question, ...input.questions.map((q) => q.text)];
  const ranked = free
    .map((c, i) => ({ id: c.id, i, score: Math.max(...asked.map((q) => model.score(q, c.statement))), sources: c.sourceIds?.length ?? 0 }))
    .sort((a, b) => b.score - a.score || b.sources - a.sources || a.i - b.i);
  const left = new Set(ranked.slice(ranked.length - drop).map((r) => r.id));
  return { ...input, claims: input.claims.filter((c) => !left.has(c.id)) };
}

export const outlineArchitectDefinition: RoleDefinition<OutlineArchitectInput, OutlineArchitectOutput, 'outlineArchitect'> = {
  name: 'outlineArchitect',
  temperature: 0.3,
  input: OutlineArchitectInput,
  output: OutlineArchitectOutput,
  check,
  fit,
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
        // The headings the claims' evidence sits under in the sources (decision 0102): the offline outline names its
        // sections from them, and a model is asked to as well, so neither engine titles a section with a template.
        ...(input.claims.some((c) => c.heading)
          ? [
              '"source headings" lists the headings the claims sit under in their sources, each with its claims\' ids. Name a section by the source heading most of its claims sit under, or by a clause of the research question; never by a template question such as "What has changed recently about …?". A heading marked "(document title)" names a whole document: use it only for a section drawn mostly from that document.',
            ]
          : []),
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
        ...(input.claims.some((c) => c.heading) ? [['source headings', sourceHeadings(input)] as const] : []),
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
};
