import {
  commonTerm,
  differentTerms,
  fromDistinctSources,
  HTML_ELEMENT,
  leakedText,
  MAINTENANCE_MARKER,
  nearDuplicate,
  opposingPairs,
  pointsAtSeveral,
  pointsBack,
  sidePointer,
  proseFault,
  REST_MARKUP,
  statesStatement,
  templateQuestion,
} from '@dossier/agents';
import type { ReportJson } from '@dossier/contracts';

/*
 * The report lint (issue 25, docs/decisions/0045): what an editor would not let through, counted over one report.
 * Recall and citation support say whether a report answers and is right; this says whether it reads as a report:
 * - leaked: markup, ids or prompt apparatus in a sentence or heading;
 * - duplicate: a sentence repeated in the body, in the disagreements, or by the framing (the introduction may restate
 *   body findings: that is its job; the conclusion may not repeat them verbatim);
 * - fragment: a list lead-in ending in ":", a cut sentence, a "[citation needed]" marker (in the sentence, or in the
 *   passage it cites: 0165), an item without its lead-in, program text as prose;
 * - boilerplate: the document describing itself, bylines and affiliations, a work citing itself, contact and
 *   bug-report lines, navigation, marketing;
 * - template-heading: a section named by one of the planner's templates rather than by its subject, or such a template
 *   named as an open question;
 * - short-section: a body section of fewer than two sentences;
 * - dispute-in-body: a body sentence stating one side of a dispute the report records;
 * - disagreements: "Where the sources disagree" holding something that is not a side or a reason (a paragraph of one
 *   sentence, boilerplate, a fragment);
 * - back-reference: a sentence opening with a word or phrase that points back ("Its level …", "Together these two
 *   factors …", "The figure compares …") where it has nothing to point at: opening a paragraph, or after a sentence of
 *   other sources (decision 0112); the report's own framing sentence pointing back at a quoted one counts too. "This
 *   report …" names what it means and is not one.
 * Fragments and boilerplate are judged on cited sentences (the sources' words); the report's own uncited framing
 * sentences are judged for leaks and repeats only.
 */

export const LINT_KINDS = [
  'leaked',
  'duplicate',
  'fragment',
  'boilerplate',
  'template-heading',
  'short-section',
  'dispute-in-body',
  'disagreements',
  'back-reference',
] as const;
export type LintKind = (typeof LINT_KINDS)[number];

export interface LintDefect {
  kind: LintKind;
  /** The finer kind (e.g. "lead-in", "byline") where there is one. */
  detail: string;
  section: string;
  text: string;
}

export interface ReportLint {
  /** Sentences of the report outside its method section. */
  sentences: number;
  defects: LintDefect[];
  byKind: Record<LintKind, number>;
}

/** Template headings the planner no longer makes, seen in reports of earlier versions (0045), which a lint still reads. */
const EARLIER_TEMPLATES: readonly RegExp[] = [/^What goes wrong if\b/i];

/**
 * A heading the planner made from a template (question-architect's aspects, the moderator's follow-ups): it names an
 * aspect, not what the section found. The same test that keeps such questions out of the open ones (decision 0166).
 */
export function templateHeading(title: string): boolean {
  return templateQuestion(title) || EARLIER_TEMPLATES.some((p) => p.test(title.replace(/\s+/g, ' ').trim()));
}

/**
 * Markup a rendered sentence must not carry: HTML tags, Markdown syntax, entities; and our prompt apparatus (ids,
 * delimiters, instruction text), unless `sourceWords`: a sentence that is a verbatim slice of the excerpt it cites is the
 * source's words, where a JSON library's manual saying what `object_hook` returns is no instruction of ours (decision 0132).
 */
function leakedMarkup(text: string, sourceWords = false): string | null {
  // Real HTML elements only: a manual's placeholders ("git reset <commit>", "<path>") are the source's words.
  if (HTML_ELEMENT.test(text)) return 'an HTML tag';
  // reStructuredText roles and literals of Python-style documentation (":func:`run`", "``text=True``").
  if (REST_MARKUP.test(text)) return 'reST markup';
  if (/&(?:[a-z]{2,8}|#\d{2,6});/i.test(text)) return 'an HTML entity';
  // A heading's "#" opens the text; inside a sentence ("the comment character # in …") it is the source's own character,
  // as "**" in a glob ("abc/**") is: emphasis wraps a word (decision 0132).
  if (/^\s*#{1,6}\s|\*\*[^*\s][^*]*[^*\s]\*\*|\]\([^)]*\)|^\s*(?:[-*+]|\d+\.)\s|```/.test(text)) return 'Markdown syntax';
  return sourceWords ? null : leakedText(text);
}

const NO_COUNTS = (): Record<LintKind, number> => Object.fromEntries(LINT_KINDS.map((k) => [k, 0])) as Record<LintKind, number>;

/** Every defect of one report. */
export function lintReport(report: ReportJson): ReportLint {
  const defects: LintDefect[] = [];
  const add = (kind: LintKind, detail: string, section: string, text: string) => defects.push({ kind, detail, section, text });
  const sections = report.sections.filter((s) => s.kind !== 'method');
  // The sides of the disputes the report records, and of those its claims hold unpaired: two claims saying opposite
  // things about the same subject (decision 0087, the same detector as the writer's).
  // A dispute is between sources (decision 0098): two claims of one source only are none.
  const claims = Object.values(report.claims);
  const claimTexts = claims.map((c) => c.text);
  const sourcesOf = (c: { evidenceIds: string[] } | undefined) => [
    ...new Set((c?.evidenceIds ?? []).flatMap((id) => report.evidence[id]?.sourceId ?? [])),
  ];
  // And about one thing: two claims describing different terms of a manual are none (decision 0154).
  const evidenceTerms = new Map(Object.entries(report.evidence).map(([id, e]) => [id, e.term ?? null]));
  const termOf = (c: { evidenceIds: string[] } | undefined) => commonTerm(c?.evidenceIds ?? [], evidenceTerms);
  const between = ([a, b]: readonly [string, string]) =>
    fromDistinctSources(sourcesOf(report.claims[a]), sourcesOf(report.claims[b])) &&
    !differentTerms(termOf(report.claims[a]), termOf(report.claims[b]));
  const sides = [
    ...report.contradictions.filter((c) => between(c.claimIds)).flatMap((c) => c.claimIds.flatMap((id) => report.claims[id]?.text ?? [])),
    ...opposingPairs(claimTexts, claims.map(sourcesOf))
      .filter(([a, b]) => !differentTerms(termOf(claims[a]), termOf(claims[b])))
      .flatMap(([a, b]) => [claimTexts[a]!, claimTexts[b]!]),
  ];
  const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
  const inItsExcerpt = (s: { text: string; evidenceIds: string[] }) =>
    s.evidenceIds.some((id) => flat(report.evidence[id]?.excerpt ?? '').includes(flat(s.text)));
  const body: string[] = [];
  const framing: string[] = [];
  let sentences = 0;

  for (const section of sections) {
    const leak = leakedMarkup(section.title);
    if (leak) add('leaked', leak, section.title, section.title);
    const all = section.paragraphs.flatMap((p) => p.sentences);
    sentences += all.length;
    if (section.kind === 'body') {
      if (templateHeading(section.title)) add('template-heading', 'template', section.title, section.title);
      if (all.length < 2) add('short-section', `${all.length} sentence${all.length === 1 ? '' : 's'}`, section.title, section.title);
    }
    if (section.kind === 'framing') {
      // A template named as an open question is a search angle, not a gap the reader asked about (decision 0166).
      for (const s of all)
        for (const m of s.text.matchAll(/"([^"]+\?)"/g))
          if (templateQuestion(m[1]!)) add('template-heading', 'open question', section.title, m[1]!);
    }
    if (section.kind === 'contradictions') {
      for (const p of section.paragraphs)
        if (p.sentences.length < 2) add('disagreements', 'one sentence, not two sides', section.title, p.sentences[0]?.text ?? '');
    }
    for (const p of section.paragraphs) {
      p.sentences.forEach((s, i) => {
        // A side pointer is never shown (readerSentence states what follows it, decision 0136): one that is, points back.
        const opening = pointsBack(s.text) ?? sidePointer(s.text);
        if (opening === null) return;
        const before = p.sentences[i - 1];
        const cited = s.evidenceIds.length > 0;
        // The engine's own sentences outside the framing (a dispute's reason: "The two figures cover …") point at the
        // sides they follow by design.
        if (!cited && section.kind !== 'framing') return;
        // A dispute's reason pointing at several things ("The two series …") points at the sides before it.
        if (section.kind === 'contradictions' && i > 0 && pointsAtSeveral(opening)) return;
        const mine = new Set(sourcesOf(s));
        const pointsAtNothing =
          before === undefined || (cited ? !sourcesOf(before).some((x) => mine.has(x)) : before.evidenceIds.length > 0);
        if (pointsAtNothing)
          add(
            'back-reference',
            `"${opening}" ${before === undefined ? 'opens the paragraph' : cited ? 'follows another source' : 'follows a quoted sentence'}`,
            section.title,
            s.text,
          );
      });
    }
    const seenHere: string[] = [];
    for (const s of all) {
      const leak = leakedMarkup(s.text, inItsExcerpt(s));
      if (leak) {
        add('leaked', leak, section.title, s.text);
        continue;
      }
      const cited = s.evidenceIds.length > 0;
      // A sentence introducing the code shown under it is no lead-in without its list (decision 0102).
      const fault = cited ? proseFault(s.code ? s.text.replace(/:(["'\u201d\u2019)\]]*)\s*$/, '.$1') : s.text) : null;
      if (fault) {
        if (section.kind === 'contradictions') add('disagreements', `${fault.group}: ${fault.kind}`, section.title, s.text);
        else add(fault.group, fault.kind, section.title, s.text);
      } else if (cited && s.evidenceIds.some((id) => MAINTENANCE_MARKER.test(report.evidence[id]?.excerpt ?? ''))) {
        // Shown without its marker, the sentence reads well; the passage it cites still says "[citation needed]" (0165).
        add(section.kind === 'contradictions' ? 'disagreements' : 'fragment', 'citation-needed in its evidence', section.title, s.text);
      }
      if (section.kind === 'body') {
        if (body.some((b) => nearDuplicate(b, s.text))) add('duplicate', 'repeats a body sentence', section.title, s.text);
        else body.push(s.text);
        const side = sides.find((c) => statesStatement(s.text, c));
        if (side !== undefined) add('dispute-in-body', `states "${side.slice(0, 80)}"`, section.title, s.text);
      } else if (section.kind === 'framing') {
        if (framing.some((b) => nearDuplicate(b, s.text))) add('duplicate', 'repeats a framing sentence', section.title, s.text);
        else if (section.id === 'conclusion' && body.some((b) => nearDuplicate(b, s.text)))
          add('duplicate', 'the conclusion repeats a body sentence', section.title, s.text);
        framing.push(s.text);
      } else if (section.kind === 'contradictions') {
        if (seenHere.some((b) => nearDuplicate(b, s.text)))
          add('duplicate', 'repeats a sentence of the disagreements', section.title, s.text);
        // A reason the reader already read in the body is shown twice (decision 0096).
        else if (body.some((b) => nearDuplicate(b, s.text)))
          add('duplicate', 'the disagreements repeat a body sentence', section.title, s.text);
        seenHere.push(s.text);
      }
    }
  }
  const byKind = NO_COUNTS();
  for (const d of defects) byKind[d.kind]++;
  return { sentences, defects, byKind };
}

/** Defects per 100 sentences. */
export function defectsPer100(lint: Pick<ReportLint, 'sentences' | 'defects'> | { sentences: number; defects: number }): number {
  const n = typeof lint.defects === 'number' ? lint.defects : lint.defects.length;
  return lint.sentences === 0 ? 0 : (100 * n) / lint.sentences;
}

/** The lint in lines for people: a total, then each kind with a count and up to `examples` examples. */
export function formatLint(lint: ReportLint, examples = 3): string[] {
  const lines = [
    `Report lint: ${lint.defects.length} defect${lint.defects.length === 1 ? '' : 's'} in ${lint.sentences} sentences (${defectsPer100(lint).toFixed(1)} per 100)`,
  ];
  for (const kind of LINT_KINDS) {
    const of = lint.defects.filter((d) => d.kind === kind);
    if (of.length === 0) continue;
    lines.push(`  ${kind}: ${of.length}`);
    for (const d of of.slice(0, examples))
      lines.push(`    - (${d.detail}) [${d.section.slice(0, 60)}] “${d.text.replace(/\s+/g, ' ').slice(0, 160)}”`);
  }
  return lines;
}
