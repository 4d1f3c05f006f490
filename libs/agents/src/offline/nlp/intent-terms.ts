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
  /** Phrasal verbs that ask it ("back out"): their first word asks it only when the question says the whole phrase. */
  phrases?: readonly string[];
  /** Words an answer to it is written in. */
  answers: string;
  /** When set, its words ask it only in a question that reads this way. */
  when?: RegExp;
  /** Headings a source files its answers under: a sentence under one answers it, whatever its own words. */
  headings?: string;
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
  {
    // "When did Arvenna first learn …?" is answered by "The earliest incident that the Office links to the defect happened
    // on 9 January 2024" (velora-recall q03; decision 0168).
    asks: 'first',
    answers: 'earliest initial initially',
  },
  {
    // "How do I back out of a merge that produced conflicts?" is answered by "git merge --abort" (issue 25's example).
    // Not "undo": "How do I undo the last commit with git reset" is answered in reset's own words, and abort and revert
    // crowded them out (git-manual q01 lost a key point; decision 0151).
    asks: 'cancel',
    phrases: ['back out', 'roll back'],
    answers: 'abort undo revert rollback cancel',
  },
  {
    // "Does the cell maker accept that finding?" is answered by "The company does not agree with its conclusion about the
    // cause of the overheating." (velora-recall q04; decision 0169): a party's position is written in any of these words.
    asks: 'accept accepts accepted agree agrees agreed',
    answers:
      'accept accepts accepted agree agrees agreed disagree disagrees disagreed reject rejects rejected dispute disputes disputed contest contests contested deny denies denied',
  },
  {
    // "What did independent laboratory tests of VB-36 packs find?" is answered by the test report's "3. Results": "Group A
    // (charging at -5 °C): 3 of the 12 packs … went into thermal runaway", which shares one word with the question, while
    // the report's scope and its legal notice name the laboratory and the tests (velora-recall q13; decision 0169). Only a
    // question asking what someone found: "How can I find which commit introduced a bug?" asks how to find.
    asks: 'find found show showed shown conclude concluded reveal revealed',
    when: /\bwhat\b[^?]*?\b(?:did|does|do|have|has|had)\b[^?]*?\b(?:find|found|show|shown|conclude|concluded|reveal|revealed)\b/i,
    answers: 'found finding findings result results conclude concluded conclusion conclusions',
    headings: 'result results finding findings conclusion conclusions summary outcome outcomes',
  },
];

const stemsOf = (words: string): string[] => [...new Set(words.split(/\s+/).map(stem))];
const answersOf = (intent: Intent): string[] => stemsOf(intent.answers);

/**
 * The intents a question asks by its wording (`when`) or answers under headings, their words stemmed once: the curator
 * scores every source against each of a run's questions.
 */
const WORDED: readonly { intent: Intent; asks: readonly string[]; answers: readonly string[]; headings: readonly string[] }[] =
  INTENTS.filter((i) => i.when !== undefined || i.headings !== undefined).map((intent) => ({
    intent,
    asks: stemsOf(intent.asks),
    answers: answersOf(intent),
    headings: intent.headings === undefined ? [] : stemsOf(intent.headings),
  }));

const BY_STEM: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const intent of INTENTS) {
    if (intent.when) continue;
    const answers = answersOf(intent);
    for (const word of intent.asks.split(/\s+/)) {
      const s = stem(word);
      out.set(s, [...new Set([...(out.get(s) ?? []), ...answers.filter((a) => a !== s)])]);
    }
  }
  return out;
})();

/** Each phrasal verb that asks an intent, as a pattern over a question (any form of its verb), with its first word's stem. */
const PHRASES: readonly { pattern: RegExp; asked: string; answers: readonly string[] }[] = INTENTS.flatMap((intent) =>
  (intent.phrases ?? []).map((phrase) => {
    const [verb, ...rest] = phrase.split(' ');
    return {
      pattern: new RegExp(`\\b${verb}(?:s|ed|ing)?\\s+${rest.join('\\s+')}\\b`, 'i'),
      asked: stem(verb!),
      answers: answersOf(intent).filter((a) => a !== stem(verb!)),
    };
  }),
);

/** For each stem of a question that states an intent, the stems its answer is written in (not including itself). */
export function intentTerms(queryStems: Iterable<string>, question?: string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const stems = new Set(queryStems);
  for (const s of stems) {
    const answers = BY_STEM.get(s);
    if (answers) out.set(s, answers);
  }
  if (question === undefined) return out;
  const add = (asked: string, answers: readonly string[]) => out.set(asked, [...new Set([...(out.get(asked) ?? []), ...answers])]);
  // An intent asked only in a question that reads its way ("What did … find?").
  for (const w of WORDED) {
    if (!w.intent.when?.test(question)) continue;
    for (const asked of w.asks.filter((a) => stems.has(a)))
      add(
        asked,
        w.answers.filter((a) => a !== asked),
      );
  }
  for (const p of PHRASES) if (stems.has(p.asked) && p.pattern.test(question)) add(p.asked, p.answers);
  return out;
}

/**
 * For each stem of a question that asks an intent answered under headings, the stems of those headings: a sentence
 * under "3. Results" answers "What did the tests find?" (decision 0169).
 */
export function headingTerms(queryStems: Iterable<string>, question: string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const stems = new Set(queryStems);
  for (const w of WORDED) {
    if (w.headings.length === 0 || (w.intent.when !== undefined && !w.intent.when.test(question))) continue;
    for (const asked of w.asks.filter((a) => stems.has(a))) out.set(asked, w.headings);
  }
  return out;
}
