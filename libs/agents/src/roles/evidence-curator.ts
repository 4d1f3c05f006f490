import { z } from 'zod';
import { MAINTENANCE_MARKER } from '../offline/nlp/prose-faults';
import { buildPrompt, listWithIds } from '../prompt/build-prompt';
import { locateExcerpt } from './grounding';
import type { RoleDefinition, InputSplit, ReferenceCheck } from './role';
import { middleCut } from './split';
import { Id, Question, Unit, text } from './schemas';

export const EvidenceCuratorInput = z.strictObject({
  question: Question,
  questions: z.array(z.strictObject({ id: Id, text: text(2000) })),
  source: z.strictObject({ id: Id, title: z.string().max(1000), text: z.string() }),
  maxFragments: z.int().min(1).max(200),
});
export type EvidenceCuratorInput = z.infer<typeof EvidenceCuratorInput>;

export const CuratedFragment = z
  .strictObject({
    start: z.int().min(0),
    end: z.int().min(0),
    /** Exactly source.text.slice(start, end). */
    excerpt: text(20_000),
    statement: text(4000),
    questionId: Id.nullable(),
    confidence: Unit,
  })
  .refine((f) => f.end > f.start && f.end - f.start === f.excerpt.length, { message: 'excerpt length must equal end - start' });
export const EvidenceCuratorOutput = z.strictObject({ fragments: z.array(CuratedFragment) });
export type EvidenceCuratorOutput = z.infer<typeof EvidenceCuratorOutput>;

/**
 * Models are poor at character offsets: each excerpt is found in the source text and its offsets taken from there;
 * an excerpt that is not a verbatim passage is dropped, never stored. So is a passage its own source flags as
 * unsupported ("[citation needed]", "[dubious]"): no evidence, whichever engine chose it (decision 0165).
 */
function ground(input: EvidenceCuratorInput, raw: unknown): { value: unknown; issues: string[] } {
  const fragments = (raw as { fragments?: unknown } | null)?.fragments;
  if (!Array.isArray(fragments)) return { value: raw, issues: [] };
  const kept: unknown[] = [];
  let dropped = 0;
  for (const f of fragments as Record<string, unknown>[]) {
    const at =
      typeof f?.['excerpt'] === 'string'
        ? locateExcerpt(input.source.text, f['excerpt'], typeof f['start'] === 'number' ? f['start'] : 0)
        : null;
    if (!at) {
      dropped++;
      continue;
    }
    const excerpt = input.source.text.slice(at.start, at.end);
    if (MAINTENANCE_MARKER.test(excerpt)) continue;
    kept.push({ ...f, start: at.start, end: at.end, excerpt });
  }
  const issues =
    dropped > 0 && kept.length === 0
      ? [`none of the ${dropped} excerpts is a verbatim passage of the source text: copy excerpts exactly`]
      : [];
  return { value: { ...(raw as object), fragments: kept }, issues };
}

function check(input: EvidenceCuratorInput, output: EvidenceCuratorOutput): ReferenceCheck<EvidenceCuratorOutput> {
  const known = new Set(input.questions.map((q) => q.id));
  const unknown = output.fragments.filter((f) => f.questionId !== null && !known.has(f.questionId));
  const issues =
    unknown.length > 0
      ? [`fragments name questions that were not given: ${[...new Set(unknown.map((f) => f.questionId))].slice(0, 5).join(', ')}`]
      : [];
  const fragments = output.fragments.map((f) => (f.questionId !== null && !known.has(f.questionId) ? { ...f, questionId: null } : f));
  const kept = fragments.slice(0, input.maxFragments);
  return { issues, cleaned: { fragments: kept }, dropped: unknown.length, trimmed: fragments.length - kept.length };
}

/**
 * A source too long for one request, in two parts cut at a paragraph (else a sentence) near its middle, each asked
 * for half the fragments; the second part's offsets are moved back into the whole text (decision 0040).
 */
function split(input: EvidenceCuratorInput): InputSplit<EvidenceCuratorInput, EvidenceCuratorOutput> | null {
  const text = input.source.text;
  const cut = middleCut(text);
  if (cut === null) return null;
  const part = (t: string): EvidenceCuratorInput => ({
    ...input,
    source: { ...input.source, text: t },
    maxFragments: Math.max(1, Math.ceil(input.maxFragments / 2)),
  });
  return {
    parts: [part(text.slice(0, cut)), part(text.slice(cut))],
    join: ([a, b]) => ({
      fragments: [...a.fragments, ...b.fragments.map((f) => ({ ...f, start: f.start + cut, end: f.end + cut }))].slice(
        0,
        input.maxFragments,
      ),
    }),
  };
}

export const evidenceCuratorDefinition: RoleDefinition<EvidenceCuratorInput, EvidenceCuratorOutput, 'evidenceCurator'> = {
  ground,
  check,
  split,
  idle: (input) => (input.source.text.trim().length === 0 ? { fragments: [] } : null),
  name: 'evidenceCurator',
  temperature: 0,
  input: EvidenceCuratorInput,
  output: EvidenceCuratorOutput,
  prompt: (input) =>
    buildPrompt({
      persona: 'Evidence Curator',
      task: 'Select the passages of the source that answer the research questions (no more than the request allows), as exact excerpts with character offsets.',
      rules: [
        'An excerpt is one or a few whole sentences copied exactly from the source: excerpt must equal source.slice(start, end), offsets counted in UTF-16 code units from 0.',
        'statement restates the excerpt as one self-contained sentence, whitespace normalised, adding nothing the excerpt does not say.',
        'questionId is the id of the question the excerpt answers best, or null for the main question.',
        'Skip navigation, cookie banners, headings, bare lists and tables; prefer passages with concrete facts and figures.',
        'Skip sentences the source itself marks as unsupported or unsure ("[citation needed]", "[dubious]", "[according to whom?]"): they are not evidence.',
        'confidence in [0, 1] says how directly the excerpt answers its question.',
      ],
      output: EvidenceCuratorOutput,
      data: [
        ['question', input.question],
        ['questions', listWithIds(input.questions)],
        ['source title', input.source.title],
        ['source text', input.source.text],
      ],
      request: `At most ${input.maxFragments} passages.`,
    }),
};
