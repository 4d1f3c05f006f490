import { canonicalTokens, paraphrase, seededRandom } from './concepts';
import type { FakeChatRequest } from './fake-openai-types';
import { DEFECT_KINDS, type DefectKind, type RealisticModelOptions } from './realistic-options';

/*
 * The realistic model (issue 12): answers every role with schema-shaped but imperfect JSON, as small local models and
 * busy hosted ones do. Starting from the correct answer, it applies defects at configurable rates, seeded by the
 * request's content (so a run is reproducible whatever the order of parallel requests), and records every sentence it
 * made unsupported, so tests can measure verification against ground truth. The verifier role's answers come from
 * comparing each sentence with its cited passages (judgeFindings) and never read that record.
 */

export { DEFECT_KINDS } from './realistic-options';
export type { DefectKind, DefectRates, RealisticModelOptions } from './realistic-options';

export type CorruptionKind = 'number' | 'date' | 'name' | 'negation' | 'other_source' | 'wrong_citation';

/** A sentence the realistic model made unsupported by its citations. */
export interface Corruption {
  role: string;
  kind: CorruptionKind;
  /** The sentence as written by the model. */
  text: string;
  /** What it said before. */
  original: string;
}

export type RealisticReply = { content: string; finish?: 'stop' | 'length' } | { refusal: string };

type Json = Record<string, unknown>;
interface Sentence {
  text: string;
  evidenceIds?: string[];
}

const FICTIONAL_NAMES = ['Orsa', 'Maren', 'Halden', 'Vesterby', 'Korrin', 'Talvik'];
const FILLER = ', as recorded in the regional planning literature, its technical appendices and the minutes of every meeting since';
const AUXILIARY = /\b(is|was|are|were|has|have|had|can|will|would|could|did|does|do)\b/;

function pad(text: string, length: number): string {
  let out = text;
  while (out.length < length) out += FILLER;
  return out;
}

function alias(prefix: string, input: unknown): string {
  const json = JSON.stringify(input ?? {});
  return new RegExp(`"${prefix}\\d+"`).exec(json)?.[0].slice(1, -1) ?? `${prefix}1`;
}

/** Every sentence-like field of a role's answer, with the evidence texts its citations may point at. */
function sentencesOf(role: string, answer: Json): Sentence[] {
  switch (role) {
    case 'sectionWriter':
      return ((answer['paragraphs'] as { sentences: Sentence[] }[] | undefined) ?? []).flatMap((p) => p.sentences);
    case 'framer':
      return (answer['conclusion'] as Sentence[] | undefined) ?? [];
    case 'repairer':
      return ((answer['fixes'] as Json[] | undefined) ?? []).filter((f) => f['action'] === 'rewrite') as unknown as Sentence[];
    case 'claimBuilder':
      return ((answer['claims'] as Json[] | undefined) ?? []).map((c) => ({
        get text() {
          return c['statement'] as string;
        },
        set text(v: string) {
          c['statement'] = v;
        },
        evidenceIds: c['evidenceIds'] as string[],
      }));
    case 'evidenceCurator':
      return ((answer['fragments'] as Json[] | undefined) ?? []).map((f) => ({
        get text() {
          return f['statement'] as string;
        },
        set text(v: string) {
          f['statement'] = v;
        },
      }));
    default:
      return [];
  }
}

/** The passages a role's input holds, by id (evidence excerpts, or section sentences for the framer). */
function passagesOf(role: string, input: Json): { id: string; text: string }[] {
  const evidence = input['evidence'] as { id: string; excerpt: string }[] | undefined;
  if (evidence) return evidence.map((e) => ({ id: e.id, text: e.excerpt }));
  if (role === 'framer') {
    return ((input['sections'] as { sentences: Sentence[] }[] | undefined) ?? []).flatMap((s) =>
      s.sentences.map((x) => ({ id: x.evidenceIds?.[0] ?? '', text: x.text })),
    );
  }
  const source = (input['source'] as { text?: string } | undefined)?.text;
  return source ? [{ id: '', text: source }] : [];
}

export class RealisticModel {
  readonly corruptions: Corruption[] = [];
  readonly defects: Record<DefectKind, number> = Object.fromEntries(DEFECT_KINDS.map((k) => [k, 0])) as Record<DefectKind, number>;

  constructor(private readonly options: RealisticModelOptions) {}

  private rate(role: string, kind: DefectKind): number {
    return (this.options.roles?.[role] ?? this.options.rates)[kind] ?? 0;
  }

  /** The reply to one request: the correct answer with this request's defects applied. */
  respond(request: FakeChatRequest, correct: () => unknown): RealisticReply {
    const role = request.role;
    const input = (request.input ?? {}) as Json;
    const random = seededRandom(`${this.options.seed ?? 'dossier'}|${role}|${JSON.stringify(request.body.messages)}`);
    const hit = (kind: DefectKind) => {
      const yes = random() < this.rate(role, kind);
      if (yes) this.defects[kind]++;
      return yes;
    };
    if (hit('refusal')) return { refusal: 'I am sorry, but I cannot help with that request.' };
    const answer = structuredClone((role === 'verifier' ? this.judge(input) : correct()) as Json);
    // Sentence by sentence: paraphrased (faithfully), or made unsupported by its citations.
    for (const sentence of sentencesOf(role, answer)) {
      if (random() < this.rate(role, 'unsupported')) {
        this.defects.unsupported++;
        this.corrupt(role, sentence, input, random);
      } else if (random() < this.rate(role, 'paraphrase')) {
        this.defects.paraphrase++;
        sentence.text = paraphrase(sentence.text, random);
      }
    }
    if (hit('wrong_ids')) this.wrongIds(role, answer, input, random, false);
    if (hit('wrong_kind_ids')) this.wrongIds(role, answer, input, random, true);
    if (hit('over_length')) overLength(role, answer);
    if (hit('empty_lists')) emptyLists(role, answer);
    let json = JSON.stringify(answer);
    if (hit('sloppy_json')) json = sloppy(json, random);
    if (hit('truncated')) {
      const cut = json.slice(0, Math.max(1, Math.floor(json.length * (0.55 + 0.4 * random()))));
      return { content: cut, finish: random() < 0.5 ? 'length' : 'stop' };
    }
    if (hit('wrapped')) {
      json =
        random() < 0.5
          ? `\`\`\`json\n${json}\n\`\`\``
          : `Here is the JSON you asked for:\n${json}\n\nLet me know if you would like any changes.`;
    }
    return { content: json };
  }

  /** Makes a sentence say something its citations do not: a figure, date, name or polarity changed, or another passage. */
  private corrupt(role: string, sentence: Sentence, input: Json, random: () => number): void {
    const original = sentence.text;
    const passages = passagesOf(role, input);
    const everything = passages.map((p) => p.text).join(' ');
    const options: [CorruptionKind, () => string | null][] = [
      ['number', () => changeNumber(original, random)],
      ['date', () => changeDate(original, random)],
      ['name', () => changeName(original, everything, random)],
      ['negation', () => flipNegation(original)],
      [
        'other_source',
        () => {
          const cited = new Set(sentence.evidenceIds ?? []);
          const others = passages.filter(
            (p) => p.id && !cited.has(p.id) && !passages.some((q) => cited.has(q.id) && q.text.includes(p.text.slice(0, 40))),
          );
          const pick = others[Math.floor(random() * others.length)];
          const first = pick?.text.split(/(?<=[.!?])\s+/)[0]?.trim();
          return first && first.length > 20 && first !== original ? first : null;
        },
      ],
    ];
    const start = Math.floor(random() * options.length);
    for (let k = 0; k < options.length; k++) {
      const [kind, make] = options[(start + k) % options.length]!;
      if (kind === 'other_source' && (role === 'evidenceCurator' || !sentence.evidenceIds)) continue;
      const text = make();
      if (text && text !== original) {
        sentence.text = text;
        this.corruptions.push({ role, kind, text, original });
        return;
      }
    }
  }

  private wrongIds(role: string, answer: Json, input: Json, random: () => number, wrongKind: boolean): void {
    const fake = (prefix: string, other: string) => (wrongKind ? alias(other, input) : `${prefix}${900 + Math.floor(random() * 99)}`);
    const list = <T>(key: string): T[] => (answer[key] as T[] | undefined) ?? [];
    const one = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
    switch (role) {
      case 'sectionWriter':
      case 'framer':
      case 'repairer': {
        const target = one(sentencesOf(role, answer).filter((s) => s.evidenceIds && s.evidenceIds.length > 0));
        if (!target?.evidenceIds) return;
        const given = passagesOf(role, input).filter((p) => p.id && !target.evidenceIds!.includes(p.id));
        if (!wrongKind && given.length > 0 && random() < 0.5) {
          // A real id, the wrong one: the sentence no longer rests on what it cites.
          const original = target.text;
          target.evidenceIds = [one(given)!.id];
          this.corruptions.push({ role, kind: 'wrong_citation', text: target.text, original });
        } else target.evidenceIds = [fake('E', 'C'), ...target.evidenceIds.slice(1)];
        return;
      }
      case 'claimBuilder': {
        const claim = one(list<Json>('claims'));
        if (claim) claim['evidenceIds'] = [fake('E', 'Q')];
        return;
      }
      case 'evidenceCurator': {
        const fragment = one(list<Json>('fragments'));
        if (fragment) fragment['questionId'] = fake('Q', 'S');
        return;
      }
      case 'questionArchitect': {
        const question = one(list<Json>('questions'));
        if (question) question['perspectiveId'] = fake('P', 'Q');
        return;
      }
      case 'queryPlanner': {
        const query = one(list<Json>('queries'));
        if (query) query['questionId'] = fake('Q', 'P');
        return;
      }
      case 'counterEvidence': {
        const c = one(list<Json>('contradictions'));
        if (c) c['claimBId'] = fake('C', 'E');
        return;
      }
      case 'coverageAssessor': {
        const c = one(list<Json>('coverage'));
        if (c) c['questionId'] = fake('Q', 'C');
        return;
      }
      case 'moderator': {
        const f = one(list<Json>('followUps'));
        if (f) f['parentId'] = wrongKind ? 'the main question' : fake('Q', 'P');
        return;
      }
      case 'outlineArchitect': {
        const s = one(list<Json>('sections'));
        if (s) s['claimIds'] = [...((s['claimIds'] as string[]) ?? []), fake('C', 'E')];
        return;
      }
      default:
        return;
    }
  }

  /**
   * The verifier's judgement, from the sentence and its passages only: a sentence whose words (read through the
   * synonym table) are mostly not in its passages is unsupported; one that differs only in a figure, date, name or
   * negation is caught unless the judge, reading for gist, slips.
   */
  private judge(input: Json): Json {
    const sentences = (input['sentences'] as { text: string; evidence: { id: string; excerpt: string }[] }[] | undefined) ?? [];
    const slip = this.options.judgeSlip ?? 0.5;
    return {
      findings: sentences.map((s) => {
        if (s.evidence.length === 0) return { verdict: 'uncited', score: 0, note: 'no evidence is cited' };
        const passage = s.evidence.map((e) => e.excerpt).join(' ');
        const words = canonicalTokens(s.text).filter((w) => !/^\d/.test(w) && w !== 'not' && !w.endsWith("n't"));
        const known = new Set(canonicalTokens(passage));
        const share = words.length === 0 ? 0 : words.filter((w) => known.has(w)).length / words.length;
        const score = Math.round(share * 100) / 100;
        if (share < 0.8) return { verdict: 'unsupported', score, note: 'most of the sentence is not in the cited passages' };
        const detail = detailDifference(s.text, passage);
        const random = seededRandom(`${this.options.seed ?? 'dossier'}|judge|${s.text}|${passage.length}`);
        if (detail && random() >= slip) return { verdict: 'contradicted', score, note: `the passages differ: ${detail}` };
        return { verdict: 'supported', score, note: 'the cited passages state this' };
      }),
    };
  }
}

function detailDifference(sentence: string, passage: string): string | null {
  const numbers = (t: string) => new Set((t.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,/g, '')));
  const inPassage = numbers(passage);
  const missing = [...numbers(sentence)].find((n) => !inPassage.has(n));
  if (missing) return `figure ${missing}`;
  const names = (sentence.match(/(?<=\s)[A-Z][a-z]+/g) ?? []).filter((n) => !passage.includes(n));
  if (names.length > 0) return `name ${names[0]}`;
  const negated = (t: string) => (t.match(/\b(?:not|no|never)\b|n't\b/g) ?? []).length % 2;
  if (negated(sentence) !== negated(passage.split(/(?<=[.!?])\s+/).find((p) => overlap(p, sentence) > 0.6) ?? passage)) return 'negation';
  return null;
}

function overlap(a: string, b: string): number {
  const x = new Set(canonicalTokens(a));
  const y = canonicalTokens(b);
  return y.length === 0 ? 0 : y.filter((w) => x.has(w)).length / y.length;
}

function changeNumber(text: string, random: () => number): string | null {
  const candidates = [...text.matchAll(/(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]|\.\d)/g)].filter((m) => !/^(1[89]|20)\d\d$/.test(m[1]!));
  const m = candidates[Math.floor(random() * candidates.length)];
  if (!m) return null;
  const value = Number(m[1]);
  const decimals = m[1]!.includes('.') ? m[1]!.split('.')[1]!.length : 0;
  const changed =
    decimals > 0 ? (value + 1 + Math.floor(random() * 3)).toFixed(decimals) : String(Math.round(value * (1.3 + random())) + 1);
  return text.slice(0, m.index) + changed + text.slice(m.index! + m[1]!.length);
}

function changeDate(text: string, random: () => number): string | null {
  const years = [...text.matchAll(/\b(1[89]\d\d|20\d\d)\b/g)];
  const m = years[Math.floor(random() * years.length)];
  if (!m) return null;
  const shifted = Number(m[1]) + (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 5));
  return text.slice(0, m.index) + String(shifted) + text.slice(m.index! + 4);
}

function changeName(text: string, passages: string, random: () => number): string | null {
  // A capitalised word after the first, not a month: a name the sentence gives.
  const names = [...text.matchAll(/(?<=\s)([A-Z][a-z]{2,})\b/g)].filter(
    (m) => !/^(January|February|March|April|May|June|July|August|September|October|November|December)$/.test(m[1]!),
  );
  const m = names[Math.floor(random() * names.length)];
  const replacement = FICTIONAL_NAMES.filter((n) => !passages.includes(n) && !text.includes(n))[0];
  if (!m || !replacement) return null;
  return text.slice(0, m.index) + replacement + text.slice(m.index! + m[1]!.length);
}

function flipNegation(text: string): string | null {
  if (/\bnot\b/.test(text)) return text.replace(/\s?\bnot\b/, '');
  if (/n't\b/.test(text)) return text.replace(/n't\b/, '');
  if (/\bno longer\b/.test(text)) return text.replace(/\bno longer\b/, 'still');
  const aux = AUXILIARY.exec(text);
  if (aux) return `${text.slice(0, aux.index + aux[0].length)} not${text.slice(aux.index + aux[0].length)}`;
  const verb = /\b([a-z]+ed)\b/.exec(text);
  if (verb) return `${text.slice(0, verb.index)}did not ${verb[1]!.replace(/ed$/, '')}${text.slice(verb.index + verb[0].length)}`;
  return null;
}

/** Strings over their limits, and more items than asked for, in the fields each role has. */
function overLength(role: string, answer: Json): void {
  const each = (key: string, f: (x: Json) => void) => ((answer[key] as Json[] | undefined) ?? []).forEach(f);
  switch (role) {
    case 'perspectivePlanner':
      each('perspectives', (p) => {
        p['role'] = pad(String(p['role']), 250);
        p['affiliation'] = pad(String(p['affiliation']), 240);
      });
      answer['perspectives'] = [...((answer['perspectives'] as Json[]) ?? []), ...((answer['perspectives'] as Json[]) ?? []).slice(0, 3)];
      return;
    case 'director':
      answer['includedTopics'] = ((answer['includedTopics'] as string[]) ?? []).map((t) => pad(t, 320));
      answer['timeFrame'] = answer['timeFrame'] === null ? null : pad(String(answer['timeFrame']), 260);
      return;
    case 'outlineArchitect':
      each('sections', (s) => {
        s['title'] = pad(String(s['title']), 450);
        s['purpose'] = pad(String(s['purpose']), 2100);
      });
      return;
    case 'counterEvidence':
      each('contradictions', (c) => (c['note'] = pad(String(c['note']), 2100)));
      return;
    case 'claimBuilder':
      each('claims', (c) => (c['subject'] = pad(String(c['subject']), 420)));
      return;
    case 'queryPlanner':
      each('queries', (q) => (q['query'] = pad(String(q['query']), 1100)));
      return;
    case 'verifier':
      each('findings', (f) => (f['note'] = pad(String(f['note']), 2100)));
      return;
    case 'moderator':
      each('followUps', (f) => (f['priority'] = 150));
      return;
    default:
      return;
  }
}

/** The role's main list, empty. */
function emptyLists(role: string, answer: Json): void {
  const key: Record<string, string> = {
    director: 'includedTopics',
    perspectivePlanner: 'perspectives',
    questionArchitect: 'questions',
    queryPlanner: 'queries',
    evidenceCurator: 'fragments',
    claimBuilder: 'claims',
    counterEvidence: 'contradictions',
    coverageAssessor: 'coverage',
    moderator: 'followUps',
    outlineArchitect: 'sections',
    sectionWriter: 'paragraphs',
    verifier: 'findings',
    repairer: 'fixes',
    framer: 'conclusion',
  };
  if (key[role]) answer[key[role]] = [];
}

/** Enum values in another case, an extra key, and null for a list that may be empty. */
function sloppy(json: string, random: () => number): string {
  const shout = random() < 0.5;
  const out = json.replace(
    /"(riskLevel|status|kind|verdict|action)":"([a-z_]+)"/g,
    (_, key: string, value: string) => `"${key}":"${shout ? value.toUpperCase() : value[0]!.toUpperCase() + value.slice(1)}"`,
  );
  return out
    .replace(/^\{/, '{"model_comment":"generated answer",')
    .replace(/"(excludedTopics|followUps|contradictions)":\[\]/g, '"$1":null');
}
