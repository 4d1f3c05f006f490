import { fragmentOf, headingProblem, leakedText, NO_HYGIENE, SeenSentences, type HygieneCounts } from './model-text';

/*
 * One text gate for every model string that reaches a report (decision 0041): sentences of sections, of the
 * introduction and conclusion, of repairs and of interview answers; section headings; research questions and
 * follow-ups (they title sections and are named as open). A model answer is passed through its role's gate after its
 * ids are checked: what fails is named in the one repair request (decision 0019), and what still fails after it is
 * dropped — a heading or a question is cleaned of what leaked instead, when something readable is left — and counted
 * (`llm_calls.notes.hygiene`, summed into `report.json` `metrics.hygiene`). Offline answers are not gated: every
 * sentence of theirs is a verbatim excerpt, which the source filters and the report lint (0045) look after.
 */

export interface GateResult<O> {
  output: O;
  issues: string[];
  /** What the gate removed from `output`, per kind. */
  dropped: HygieneCounts;
}

interface Sentence {
  text: string;
}

type Gate = (output: never, quoted: Quoted) => GateResult<unknown>;

/** Whether a sentence is quoted word for word from what the role was given (a source's words: not the gate's to judge). */
type Quoted = (text: string) => boolean;

const normal = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();

/** The passages a role was given to quote from: evidence excerpts, or the verified sentences of the sections. */
function quotedFrom(input: unknown): Quoted {
  const i = (input ?? {}) as { evidence?: { excerpt?: unknown }[]; sections?: { sentences?: { text?: unknown }[] }[] };
  const passages = [
    ...(i.evidence ?? []).map((e) => e.excerpt),
    ...(i.sections ?? []).flatMap((x) => (x.sentences ?? []).map((y) => y.text)),
  ].flatMap((t) => (typeof t === 'string' ? [normal(t)] : []));
  return (text) => {
    const t = normal(text);
    return t.length > 0 && passages.some((p) => p.includes(t));
  };
}

/** A sentence's fault: leaked apparatus, a fragment, or a repeat of an earlier sentence of the same answer. */
function sentenceFault(text: string, seen: SeenSentences, quoted: Quoted = () => false): { kind: keyof HygieneCounts; why: string } | null {
  const verbatim = quoted(text);
  const leaked = verbatim ? null : leakedText(text);
  if (leaked) return { kind: 'leaked', why: `carries ${leaked}` };
  const fragment = verbatim ? null : fragmentOf(text);
  if (fragment) return { kind: 'fragments', why: `is not a complete sentence: ${fragment}` };
  const earlier = seen.repeats(text);
  if (earlier !== null) return { kind: 'duplicates', why: `repeats an earlier sentence ("${earlier.slice(0, 60)}")` };
  return null;
}

/** Sentences of one answer gated in order; a repeat is judged against every sentence before it in the answer. */
function gateSentences<T extends Sentence>(
  sentences: readonly T[],
  label: string,
  seen: SeenSentences,
  quoted: Quoted,
  offset = 0,
): { kept: T[]; issues: string[]; dropped: HygieneCounts } {
  const dropped = { ...NO_HYGIENE };
  const issues: string[] = [];
  const kept = sentences.filter((s, i) => {
    const fault = sentenceFault(s.text, seen, quoted);
    if (!fault) return true;
    dropped[fault.kind]++;
    issues.push(`${label} ${offset + i + 1} ${fault.why}: write complete prose sentences only, with citations in evidenceIds`);
    return false;
  });
  return { kept, issues, dropped };
}

/** Leaked apparatus cut out of a heading or question; null when nothing readable is left. */
export function scrubbed(text: string): string | null {
  const out = text
    .replace(/\[\s*[ECQSP]\d{1,4}(?:\s*[,;]\s*[ECQSP]\d{1,4})*\s*\]/g, ' ')
    .replace(/(?:^|\s)[ECQSP]\d{1,4}(?=\s|$)/g, ' ')
    .replace(/<<<[^>]*>>>|>>|<<|\bEND DATA\b/g, ' ')
    .replace(/\b(?:produce|return|output|reply with|respond with)\b[^.?]{0,30}\bjson\b[^.?]*[.?]?/gi, ' ')
    .replace(/\bjson object\b[^.?]*[.?]?/gi, ' ')
    .replace(/[{[,]\s*["'][\w-]+["']\s*:.*$/s, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return out.length >= 3 && headingProblem(out) === null ? out : null;
}

/** Headings (or questions) of an answer: a leaked one is named for the repair, and cleaned (or dropped) in the output. */
function gateTitles<T>(
  items: readonly T[],
  get: (t: T) => string,
  set: (t: T, text: string) => T,
  label: string,
): { kept: T[]; issues: string[]; dropped: HygieneCounts } {
  const dropped = { ...NO_HYGIENE };
  const issues: string[] = [];
  const kept = items.flatMap((item, i) => {
    const problem = headingProblem(get(item));
    if (!problem) return [item];
    dropped.leaked++;
    issues.push(`${label} ${i + 1} ${problem === 'it names nothing' ? problem : `carries ${problem}`}: name the subject in plain words`);
    const clean = scrubbed(get(item));
    return clean ? [set(item, clean)] : [];
  });
  return { kept, issues, dropped };
}

const sum = (...counts: HygieneCounts[]): HygieneCounts =>
  counts.reduce(
    (a, b) => ({ leaked: a.leaked + b.leaked, duplicates: a.duplicates + b.duplicates, fragments: a.fragments + b.fragments }),
    {
      ...NO_HYGIENE,
    },
  );

type Paragraphs = { paragraphs: { sentences: Sentence[] }[] };

const GATES: Readonly<Record<string, Gate>> = {
  sectionWriter: (output: Paragraphs, quoted) => {
    const seen = new SeenSentences();
    let offset = 0;
    const issues: string[] = [];
    const dropped: HygieneCounts[] = [];
    const paragraphs = output.paragraphs.flatMap((p) => {
      const g = gateSentences(p.sentences, 'sentence', seen, quoted, offset);
      offset += p.sentences.length;
      issues.push(...g.issues);
      dropped.push(g.dropped);
      return g.kept.length > 0 ? [{ ...p, sentences: g.kept }] : [];
    });
    return { output: { ...output, paragraphs }, issues, dropped: sum(...dropped) };
  },
  interviewExpert: (output: { sentences: Sentence[] }, quoted) => {
    const g = gateSentences(output.sentences, 'sentence', new SeenSentences(), quoted);
    return { output: { ...output, sentences: g.kept }, issues: g.issues, dropped: g.dropped };
  },
  framer: (output: { introduction: Sentence[]; conclusion: Sentence[] }, quoted) => {
    const intro = gateSentences(output.introduction, 'introduction sentence', new SeenSentences(), quoted);
    const conclusion = gateSentences(output.conclusion, 'conclusion sentence', new SeenSentences(), quoted);
    return {
      output: { ...output, introduction: intro.kept, conclusion: conclusion.kept },
      issues: [...intro.issues, ...conclusion.issues],
      dropped: sum(intro.dropped, conclusion.dropped),
    };
  },
  repairer: (output: { fixes: ({ action: string; text?: string } & Record<string, unknown>)[] }, quoted) => {
    const dropped = { ...NO_HYGIENE };
    const issues: string[] = [];
    const seen = new SeenSentences();
    // A fix per sentence, in order: a rewrite that fails the gate becomes a drop, so the list keeps its length.
    const fixes = output.fixes.map((fix, i) => {
      if (fix.action !== 'rewrite' || typeof fix.text !== 'string') return fix;
      const fault = sentenceFault(fix.text, seen, quoted);
      if (!fault) return fix;
      dropped[fault.kind]++;
      issues.push(`rewritten sentence ${i + 1} ${fault.why}: write a complete prose sentence, with citations in evidenceIds`);
      return { action: 'drop' };
    });
    return { output: { ...output, fixes }, issues, dropped };
  },
  outlineArchitect: (output: { sections: { title: string }[] }) => {
    const g = gateTitles(
      output.sections,
      (s) => s.title,
      (s, title) => ({ ...s, title }),
      'section title',
    );
    return { output: { ...output, sections: g.kept }, issues: g.issues, dropped: g.dropped };
  },
  questionArchitect: (output: { questions: { text: string }[] }) => {
    const g = gateTitles(
      output.questions,
      (q) => q.text,
      (q, text) => ({ ...q, text }),
      'question',
    );
    return { output: { ...output, questions: g.kept }, issues: g.issues, dropped: g.dropped };
  },
  moderator: (output: { followUps: { text: string }[] }) => {
    const g = gateTitles(
      output.followUps,
      (q) => q.text,
      (q, text) => ({ ...q, text }),
      'follow-up',
    );
    return { output: { ...output, followUps: g.kept }, issues: g.issues, dropped: g.dropped };
  },
  interviewAnalyst: (output: { question: string }) => {
    const problem = headingProblem(output.question);
    if (!problem) return { output, issues: [], dropped: { ...NO_HYGIENE } };
    const clean = scrubbed(output.question);
    return {
      output: clean ? { ...output, question: clean } : output,
      issues: [`the question carries ${problem}: ask in plain words`],
      dropped: { ...NO_HYGIENE, leaked: 1 },
    };
  },
};

/**
 * A model answer of `role` (to `input`) through the gate: a sentence quoted word for word from the passages the role was
 * given is the source's, judged for repeats only; the answer with what failed removed (or cleaned), what failed in words for
 * the repair request, and the counts. Roles whose text never reaches a report pass unchanged.
 */
export function gateModelText<O>(role: string, input: unknown, output: O): GateResult<O> {
  const gate = Object.hasOwn(GATES, role) ? GATES[role] : undefined;
  if (!gate) return { output, issues: [], dropped: { ...NO_HYGIENE } };
  return gate(output as never, quotedFrom(input)) as GateResult<O>;
}
