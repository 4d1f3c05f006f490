import { seededRandom } from './concepts';

/*
 * Misbehaviours of real OpenAI-compatible endpoints (issue 24), at a rate, for CLI tests of the openai engine: HTTP
 * faults (429 with Retry-After, bursts of 5xx, hangs), replies wrong in form (fences, prose, truncation, refusal text,
 * missing or mistyped fields) and replies wrong in what they say (text that leaks prompt markers, ids and JSON; an
 * outline without claim ids; a verifier that loses count in long lists). A body is faulted on its first sighting only,
 * so a retry of the same request is answered — as a provider's transient fault clears — and every choice is seeded by
 * the request's content, so a run is reproducible whatever the order of parallel requests.
 */

export const MISBEHAVIOUR_KINDS = [
  'rate_limit',
  'server_errors',
  'hang',
  'fenced',
  'after_prose',
  'truncated',
  'refusal_text',
  'missing_fields',
  'mistyped_fields',
  'leaky_text',
  'outline_without_claims',
  'careful_verifier',
] as const;
export type MisbehaviourKind = (typeof MISBEHAVIOUR_KINDS)[number];

export interface MisbehaviourOptions {
  kind: MisbehaviourKind;
  /** Share of requests (first sightings) that misbehave; `careful_verifier` and `outline_without_claims` ignore it (always). */
  rate: number;
  seed?: string;
  /** `careful_verifier`: the most sentences it keeps count of; beyond, it answers for the first ones only (default 3). */
  carefulLimit?: number;
  /** `hang`: how long a hung request stays silent (default 60 s: past any sane client timeout). */
  hangMs?: number;
  /** `server_errors`: how many requests in a row fail once a burst starts (default 3). */
  burst?: number;
}

/** What the server does with one request before answering it. */
export type HttpFault = { kind: 'status'; status: number; retryAfter?: string; message: string } | { kind: 'hang'; ms: number } | null;

type Json = Record<string, unknown>;

/** Text a model leaks from its prompt and its output format into prose, as seen in reports of small models. */
const LEAKS = [
  (t: string) => `${t.replace(/\.$/, '')} [E2].`,
  (t: string) => `Q1 ${t}`,
  (t: string) => `${t} >>`,
  (t: string) => `${t} Produce the JSON object now.`,
  (t: string) => `${t} <<','priority':50},{'perspectiveId':'P2'`,
  (t: string) =>
    `${t
      .split(/\s+/)
      .slice(0, Math.max(4, Math.floor(t.split(/\s+/).length * 0.6)))
      .join(' ')} [1][2]`,
];

export class Misbehaviour {
  /** Request bodies seen, so a retry of a faulted request is answered. */
  private readonly seen = new Set<string>();
  private burstLeft = 0;
  readonly counts: Record<string, number> = {};

  constructor(private readonly options: MisbehaviourOptions) {}

  private hit(key: string): boolean {
    const first = !this.seen.has(key);
    this.seen.add(key);
    if (!first) return false;
    return seededRandom(`${this.options.seed ?? 'misbehave'}|${key}`)() < this.options.rate;
  }

  private count(what: string): void {
    this.counts[what] = (this.counts[what] ?? 0) + 1;
  }

  /** An HTTP fault for this request, or null to answer it. `key` identifies the request body. */
  httpFault(key: string): HttpFault {
    const { kind } = this.options;
    if (kind === 'server_errors' && this.burstLeft > 0) {
      this.burstLeft--;
      this.count('server_errors');
      return { kind: 'status', status: 503, message: 'The server is overloaded, please try again later.' };
    }
    if (kind !== 'rate_limit' && kind !== 'server_errors' && kind !== 'hang') return null;
    if (!this.hit(key)) return null;
    this.count(kind);
    switch (kind) {
      case 'rate_limit':
        return { kind: 'status', status: 429, retryAfter: '1', message: 'Rate limit reached for requests' };
      case 'server_errors':
        this.burstLeft = (this.options.burst ?? 3) - 1;
        return { kind: 'status', status: 502, message: 'Bad gateway' };
      case 'hang':
        return { kind: 'hang', ms: this.options.hangMs ?? 60_000 };
    }
  }

  /** The reply's content for a correct answer `answer` of `role`, misbehaving when this request is hit. */
  content(key: string, role: string, answer: unknown): { content: string; finish?: 'length' } | null {
    const { kind } = this.options;
    const value = structuredClone(answer) as Json;
    if (kind === 'careful_verifier') {
      const findings = value['findings'] as unknown[] | undefined;
      const limit = this.options.carefulLimit ?? 3;
      if (role !== 'verifier' || !findings || findings.length <= limit) return null;
      this.count(kind);
      return { content: JSON.stringify({ findings: findings.slice(0, limit) }) };
    }
    if (kind === 'outline_without_claims') {
      if (role !== 'outlineArchitect') return null;
      this.count(kind);
      for (const s of (value['sections'] as Json[] | undefined) ?? []) s['claimIds'] = [];
      return { content: JSON.stringify(value) };
    }
    if (['rate_limit', 'server_errors', 'hang'].includes(kind) || !this.hit(`${key}|content`)) return null;
    const random = seededRandom(`${this.options.seed ?? 'misbehave'}|${key}|how`);
    const json = JSON.stringify(value);
    switch (kind) {
      case 'fenced':
        this.count(kind);
        return { content: `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`` };
      case 'after_prose':
        this.count(kind);
        return { content: `Sure! I read the data carefully. Here is the result as requested:\n\n${json}` };
      case 'truncated':
        this.count(kind);
        return { content: json.slice(0, Math.max(1, Math.floor(json.length * (0.5 + 0.4 * random())))), finish: 'length' };
      case 'refusal_text':
        this.count(kind);
        return { content: "I'm sorry, but I can't help with that request." };
      case 'missing_fields':
        if (!dropField(value, random)) return null;
        this.count(kind);
        return { content: JSON.stringify(value) };
      case 'mistyped_fields':
        if (!mistype(value)) return null;
        this.count(kind);
        return { content: JSON.stringify(value) };
      case 'leaky_text':
        if (!leak(role, value, random)) return null;
        this.count(kind);
        return { content: JSON.stringify(value) };
      default:
        return null;
    }
  }
}

/** A required field removed: from the first item of the answer's first list, else the answer's first key. */
function dropField(value: Json, random: () => number): boolean {
  for (const v of Object.values(value)) {
    if (Array.isArray(v) && v.length > 0 && typeof v[0] === 'object' && v[0] !== null) {
      const item = v[Math.floor(random() * v.length)] as Json;
      const keys = Object.keys(item);
      if (keys.length === 0) continue;
      delete item[keys[Math.floor(random() * keys.length)]!];
      return true;
    }
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return false;
  delete value[keys[0]!];
  return true;
}

/** Numbers written as text, id lists written as one comma-separated string: what loose JSON modes produce. */
function mistype(value: unknown): boolean {
  let changed = false;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as Json;
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'number') {
        o[k] = String(v);
        changed = true;
      } else if (Array.isArray(v) && /Ids$/.test(k) && v.every((x) => typeof x === 'string') && v.length > 0) {
        o[k] = v.join(', ');
        changed = true;
      } else walk(v);
    }
  };
  walk(value);
  return changed;
}

/** Prose fields of the roles whose text reaches a report, each a getter and setter. */
function proseOf(role: string, value: Json): { get: () => string; set: (t: string) => void }[] {
  const field = (o: Json, k: string) => (typeof o[k] === 'string' ? [{ get: () => o[k] as string, set: (t: string) => (o[k] = t) }] : []);
  const list = (k: string) => ((value[k] as Json[] | undefined) ?? []).filter((x) => x && typeof x === 'object');
  switch (role) {
    case 'sectionWriter':
      return list('paragraphs').flatMap((p) => ((p['sentences'] as Json[] | undefined) ?? []).flatMap((s) => field(s, 'text')));
    case 'framer':
      return [...list('introduction'), ...list('conclusion')].flatMap((s) => field(s, 'text'));
    case 'repairer':
      return list('fixes').flatMap((f) => field(f, 'text'));
    case 'outlineArchitect':
      return list('sections').flatMap((s) => field(s, 'title'));
    case 'questionArchitect':
      return list('questions').flatMap((q) => field(q, 'text'));
    case 'moderator':
      return list('followUps').flatMap((q) => field(q, 'text'));
    default:
      return [];
  }
}

/** One leak in a prose field, or a sentence written twice (a section writer repeating its paragraph). */
function leak(role: string, value: Json, random: () => number): boolean {
  const prose = proseOf(role, value);
  if (prose.length === 0) return false;
  if (role === 'sectionWriter' && random() < 0.25) {
    const paragraphs = value['paragraphs'] as Json[];
    paragraphs.push(structuredClone(paragraphs[0]!));
    return true;
  }
  const target = prose[Math.floor(random() * prose.length)]!;
  target.set(LEAKS[Math.floor(random() * LEAKS.length)]!(target.get()));
  return true;
}
