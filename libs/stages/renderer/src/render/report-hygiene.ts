import {
  addHygiene,
  fragmentOf,
  headingProblem,
  leakedText,
  NO_HYGIENE,
  pointsBack,
  scrubbed,
  SeenSentences,
  type HygieneCounts,
} from '@dossier/agents';
import type { ReportSection } from '@dossier/contracts';

/*
 * The text gate's last pass, over the whole report before it is built (decision 0041). The roles' gate saw one answer at
 * a time; here the report is seen whole: a body sentence that repeats one of another section is dropped, and a model's
 * sentence (one that is not a verbatim passage of what it cites) that leaked apparatus or is a fragment is dropped,
 * whatever path it took (a redraft, a frame written before the gate, an answer the repair left as it was). Headings and
 * open questions are cleaned of what leaked. Verbatim excerpts are the sources' words: the source filters and the
 * report lint (0045) judge those, not this gate.
 */

type Sentence = { text: string; evidenceIds: string[] };

const normal = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * A paragraph's sentences less those `drop` refuses, and less a sentence pointing back ("This feature can be used to …")
 * whose sentence before it was dropped: it would point at nothing, or at another sentence (decision 0152; python-stdlib's
 * q11 kept "This feature …" after its "The return value of object_hook …" was dropped as a repeat). Such a sentence is
 * counted as a fragment.
 */
function keptInOrder(sentences: readonly Sentence[], drop: (s: Sentence) => boolean, onStranded?: () => void): Sentence[] {
  const kept: Sentence[] = [];
  let lostBefore = false;
  for (const s of sentences) {
    let keep = !drop(s);
    if (keep && lostBefore && pointsBack(s.text) !== null) {
      onStranded?.();
      keep = false;
    }
    lostBefore = !keep;
    if (keep) kept.push(s);
  }
  return kept;
}

/** What the last pass needs of the report's inputs (report-builder's ReportInputs). */
interface Gateable {
  evidence: readonly { id: string; excerpt: string }[];
  intro: Sentence[];
  conclusion: Sentence[];
  sections: { title: string; paragraphs: { sentences: Sentence[] }[] }[];
  openQuestions: string[];
}

export interface GatedInputs<T> {
  inputs: T;
  /** What this pass removed or cleaned. */
  dropped: HygieneCounts;
}

export function gateReportInputs<T extends Gateable>(input: T): GatedInputs<T> {
  const excerpts = new Map(input.evidence.map((e) => [e.id, normal(e.excerpt)]));
  const verbatim = (s: Sentence) => s.evidenceIds.some((id) => excerpts.get(id)?.includes(normal(s.text)) ?? false);
  let dropped: HygieneCounts = { ...NO_HYGIENE };
  const count = (kind: keyof HygieneCounts) => (dropped = addHygiene(dropped, { [kind]: 1 }));
  const gate = (sentences: readonly Sentence[], seen: SeenSentences | null): Sentence[] =>
    keptInOrder(
      sentences,
      (s) => {
        if (!verbatim(s)) {
          if (leakedText(s.text)) return (count('leaked'), true);
          if (fragmentOf(s.text)) return (count('fragments'), true);
        }
        if (seen?.repeats(s.text) != null) return (count('duplicates'), true);
        return false;
      },
      () => count('fragments'),
    );
  const title = (t: string): string => {
    if (!headingProblem(t)) return t;
    count('leaked');
    return scrubbed(t) ?? 'Further findings';
  };
  const body = new SeenSentences();
  const sections = input.sections.map((s) => ({
    ...s,
    title: title(s.title),
    paragraphs: s.paragraphs.map((p) => ({ ...p, sentences: gate(p.sentences, body) })).filter((p) => p.sentences.length > 0),
  }));
  const openQuestions = input.openQuestions.flatMap((q) => {
    if (!leakedText(q)) return [q];
    count('leaked');
    const clean = scrubbed(q);
    return clean ? [clean] : [];
  });
  return {
    inputs: {
      ...input,
      intro: gate(input.intro, new SeenSentences()),
      conclusion: gate(input.conclusion, new SeenSentences()),
      sections,
      openQuestions,
    },
    dropped,
  };
}

/**
 * An offline report's body without the sentences that repeat one of an earlier section (decision 0108): the sections
 * are drafted apart, and a manual that repeats a sentence under each function it documents (Node's vm:
 * "Used to specify the how the modules should be loaded …") gave the same sentence to two sections. The first stays,
 * and a sentence pointing back at a dropped one goes with it. Extractive text is otherwise left as it is; this is the
 * last pass's repeat rule alone.
 */
export function withoutBodyRepeats<T extends Pick<Gateable, 'sections'>>(input: T): T {
  const body = new SeenSentences();
  const sections = input.sections.map((s) => ({
    ...s,
    paragraphs: s.paragraphs
      .map((p) => ({ ...p, sentences: keptInOrder(p.sentences, (x) => body.repeats(x.text) !== null) }))
      .filter((p) => p.sentences.length > 0),
  }));
  return { ...input, sections } as T;
}

/**
 * What the report's sections still hold of what the gate removes, counted the same way (`metrics.hygiene`): model
 * sentences with leaked apparatus or fragments, repeats among the body's sentences, leaked headings. Zero after the gate.
 */
export function remainingHygiene(sections: readonly ReportSection[], excerptOf: (id: string) => string | undefined): HygieneCounts {
  const out = { ...NO_HYGIENE };
  const body = new SeenSentences();
  for (const section of sections) {
    if (section.kind === 'method' || section.kind === 'contradictions') continue;
    if (section.kind === 'body' && headingProblem(section.title)) out.leaked++;
    const seen = section.kind === 'body' ? body : new SeenSentences();
    for (const s of section.paragraphs.flatMap((p) => p.sentences)) {
      const verbatim = s.evidenceIds.some((id) => normal(excerptOf(id) ?? '').includes(normal(s.text)));
      if (!verbatim && leakedText(s.text)) out.leaked++;
      else if (!verbatim && fragmentOf(s.text)) out.fragments++;
      if (seen.repeats(s.text) !== null) out.duplicates++;
    }
  }
  return out;
}
