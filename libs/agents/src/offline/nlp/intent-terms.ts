import { stem } from './tokens';

/*
 * Words a question asks with and the words its answer is written in, where the two differ for every subject (decision
 * 0149). "Is it safe to load pickle files?" is answered by "The pickle module is not secure. Only unpickle data you
 * trust … malicious pickle data … an untrusted source"; not one of those words is in the question, and no source's own
 * vocabulary (the pseudo-relevance expansion) links them, because the sentences that share the question's words are
 * about loading files. WordNet's senses did not help (0092: general English, mostly noise); these few groups are the
 * intents a research question states in its own word — safety and speed — with the words documentation, reports and
 * notices answer them in. One way only: a question that says "risk" is not widened to "fast".
 */

interface Intent {
  /** Words of a question that ask this. */
  asks: string;
  /** Words an answer to it is written in. */
  answers: string;
}

const INTENTS: readonly Intent[] = [
  {
    asks: 'safe safely safety unsafe secure securely security',
    answers:
      'secure insecure security trust trusted untrusted malicious attacker attack exploit vulnerable vulnerability danger dangerous hazard risk tamper tampered warning caution',
  },
  {
    asks: 'efficient efficiently efficiency fast faster quickly slow slower speed',
    answers: 'efficient performance overhead costs complexity constant linear quadratic amortized slow fast',
  },
];

const BY_STEM: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const intent of INTENTS) {
    const answers = [...new Set(intent.answers.split(/\s+/).map(stem))];
    for (const word of intent.asks.split(/\s+/)) {
      const s = stem(word);
      out.set(s, [...new Set([...(out.get(s) ?? []), ...answers.filter((a) => a !== s)])]);
    }
  }
  return out;
})();

/** For each stem of a question that states an intent, the stems its answer is written in (not including itself). */
export function intentTerms(queryStems: Iterable<string>): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const s of queryStems) {
    const answers = BY_STEM.get(s);
    if (answers) out.set(s, answers);
  }
  return out;
}
