/*
 * What a model's prose must not carry into a report (decision 0041): our own prompt apparatus leaking back — short ids
 * ("[E2]", "C1 38 vs 52 …"), data-block delimiters (">>", "<<<"), instruction text ("Produce the JSON object now"), JSON
 * fragments ("','priority':50},{'perspectiveId':") — and sentences that do not stand on their own (cut off, a lead-in
 * without its list, a numbered marker at the end). Pure detectors: the text gate (text-gate.ts) applies them to every
 * model string that reaches a report; the report lint of `dossier eval` may apply them to a whole report.
 */

export type HygieneKind = 'leaked' | 'duplicates' | 'fragments';

/** Counts per kind: what the gate dropped, or what a report still holds. */
export interface HygieneCounts {
  leaked: number;
  duplicates: number;
  fragments: number;
}

export const NO_HYGIENE: Readonly<HygieneCounts> = { leaked: 0, duplicates: 0, fragments: 0 };

export function addHygiene(a: HygieneCounts, b: Partial<HygieneCounts> | undefined): HygieneCounts {
  return {
    leaked: a.leaked + (b?.leaked ?? 0),
    duplicates: a.duplicates + (b?.duplicates ?? 0),
    fragments: a.fragments + (b?.fragments ?? 0),
  };
}

const ID = String.raw`[ECQSP]\d{1,4}`;

const LEAKS: readonly { what: string; pattern: RegExp }[] = [
  // "[E2]", "[C1, C3]": an id of the data glued to the prose (reports cite by number, never by id).
  { what: 'a short id', pattern: new RegExp(String.raw`\[\s*${ID}(?:\s*[,;]\s*${ID})*\s*\]`) },
  // "Q1 Produce …", "… sources disagree Q2", "C1 38 vs 52 million": a bare id opening or closing the text.
  { what: 'a short id', pattern: new RegExp(String.raw`^${ID}\b(?![.,]\d|\s+(?:19|20)\d\d)|(?:^|\s)${ID}[.!?]?$`) },
  // Data-block delimiters (prompt/data-block.ts) and their halves.
  { what: 'a prompt marker', pattern: /<<<|>>>|(?:^|\s)(?:>>|<<)(?=\s|$|[',"])|\bEND DATA\b|<<<DATA/ },
  {
    what: 'instruction text',
    pattern:
      /\b(?:produce|return|output|reply with|respond with)\b[^.]{0,30}\bjson\b|\bjson object\b|\bthe (?:json )?schema\b|\bdata block\b|\bevidenceIds\b|\bclaimIds\b|\bas an ai\b/i,
  },
  // JSON keys and joins: {"id": …, 'priority':50}, },{
  { what: 'a JSON fragment', pattern: /[{[,]\s*["'][\w-]+["']\s*:|\}\s*,\s*\{|["']\s*:\s*(?:\d|["'[{])|^\s*[{[]|[}\]]\s*$/ },
];

/** What of our prompt apparatus leaked into a text (a sentence, a heading, a question), or null. */
export function leakedText(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').trim();
  return LEAKS.find((l) => l.pattern.test(t))?.what ?? null;
}

// A sentence ends with a full stop, question or exclamation mark or an ellipsis, then closing quotes or brackets.
const CLOSED = /[.!?\u2026]["'\u201d\u2019)\]]*$/;

/** Why a sentence a model wrote does not stand on its own, or null. */
export function fragmentOf(sentence: string): string | null {
  const s = sentence.replace(/\s+/g, ' ').trim();
  if (s.split(' ').filter((w) => /\p{L}/u.test(w)).length < 2) return 'too short to be a sentence';
  // "…an area of approx. [1][2]": numbered markers after a cut.
  if (/(?:\[\d{1,3}\])+\s*$/.test(s)) return 'it ends in citation markers';
  if (/[:;,]["'\u201d\u2019)\]]*$/.test(s)) return 'it ends like a lead-in, not a sentence';
  if (!CLOSED.test(s)) return 'it is cut off (no closing punctuation)';
  return null;
}

/** Why a heading does not name its subject (ids, prompt text, JSON), or null. */
export function headingProblem(title: string): string | null {
  const t = title.replace(/\s+/g, ' ').trim();
  if (!/\p{L}{2,}/u.test(t)) return 'it names nothing';
  return leakedText(t);
}

/** The words of a text for comparison: lower case, letters and figures only. */
function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+(?:[.,]\d+)*/gu) ?? []
  );
}

/** Same words (ignoring case and punctuation), or nearly: 85% of the longer one's words shared, figures alike. */
export function nearDuplicate(a: string, b: string): boolean {
  const x = words(a);
  const y = words(b);
  if (x.length === 0 || y.length === 0) return false;
  if (x.join(' ') === y.join(' ')) return true;
  const figures = (w: string[]) =>
    w
      .filter((t) => /\d/.test(t))
      .sort()
      .join(' ');
  if (figures(x) !== figures(y) || Math.min(x.length, y.length) < 6) return false;
  const ys = new Set(y);
  const shared = new Set(x.filter((t) => ys.has(t))).size;
  return shared / Math.max(new Set(x).size, ys.size) >= 0.85;
}

/** Sentences seen so far in one report (or one answer): says which earlier one a new sentence repeats. */
export class SeenSentences {
  private readonly seen: string[] = [];

  /** The earlier sentence this one repeats, or null (and then it is remembered). */
  repeats(text: string): string | null {
    const earlier = this.seen.find((s) => nearDuplicate(s, text));
    if (earlier !== undefined) return earlier;
    this.seen.push(text);
    return null;
  }
}
