import { stem, tokenize } from '../nlp/tokens';
import { asksAboutTool } from '../question-parts';
import { clip, feedbackPhrases, topicPhrases } from '../topics';
import { PerspectivePlannerInput, PerspectivePlannerOutput } from '../../roles/perspective-planner';

interface Archetype {
  name: string;
  role: string;
  affiliation: string;
  focus: string;
  keywords: string;
}

/** Analyst archetypes in default order: the first `count` are used unless feedback or the question asks for others. */
export const PERSPECTIVE_CATALOGUE: readonly Archetype[] = [
  {
    name: 'Domain Scientist',
    role: 'domain scientist',
    affiliation: 'university research group',
    focus: 'mechanisms, measurements and primary studies',
    keywords:
      'scientist science scientific research researcher study studies data technical mechanism measurement expert academic cause caused causes why explain',
  },
  {
    name: 'Regulator',
    role: 'regulator / public official',
    affiliation: 'government agency',
    focus: 'rules, standards, official figures and enforcement',
    keywords: 'regulator regulation regulatory law legal policy government official compliance standard agency legislation authority',
  },
  {
    name: 'Industry Economist',
    role: 'economist / industry analyst',
    affiliation: 'industry and market research',
    focus: 'costs, markets, incentives and industry practice',
    keywords: 'economist economic economy cost costs market industry price finance financial business trade investment money budget',
  },
  {
    name: 'Community Advocate',
    role: 'representative of affected communities',
    affiliation: 'civil society organisation',
    focus: 'effects on the people and communities affected',
    keywords: 'community communities people social public resident citizen worker patient user consumer equity affected local',
  },
  {
    name: 'Methodologist',
    role: 'skeptic / methodologist',
    affiliation: 'independent review',
    focus: 'weak evidence, uncertainty, conflicting figures and methods',
    keywords:
      'skeptic sceptic method methodology bias uncertainty critic criticism flaw replication contradiction limitation doubt large size how much many figure estimate',
  },
  {
    name: 'Historian',
    role: 'journalist / historian',
    affiliation: 'independent journalism',
    focus: 'timeline, context and key events',
    keywords: 'history historical historian timeline context journalist media news event origin background',
  },
  {
    name: 'Practitioner',
    role: 'engineer / practitioner',
    affiliation: 'practice and operations',
    focus: 'implementation, operation and lessons from practice',
    keywords: 'engineer engineering practitioner practice implementation operation deployment maintenance design construction',
  },
  {
    name: 'Ethicist',
    role: 'ethicist / legal scholar',
    affiliation: 'ethics and law faculty',
    focus: 'rights, risks, fairness and accountability',
    keywords: 'ethic ethics ethical rights fairness moral accountability privacy justice',
  },
];

/**
 * Analysts for a how-to or reference question about a tool, a program or its documentation (asksAboutTool): the
 * people who would answer it — someone who does it, someone who maintains the reference, someone doing it for the
 * first time — then its pitfalls, its versions, its performance and its safety. An economist and a regulator have
 * nothing to say about reading a file line by line (issue 28).
 */
export const PRACTICAL_CATALOGUE: readonly Archetype[] = [
  {
    name: 'Practitioner',
    role: 'engineer / practitioner',
    affiliation: 'practice and operations',
    focus: 'implementation, working examples and lessons from practice',
    keywords: 'engineer engineering practitioner practice implementation example examples step steps usage use how production',
  },
  {
    name: 'Maintainer',
    role: 'maintainer / reference author',
    affiliation: "the project's maintainers",
    focus: 'the reference documentation: calls, options, defaults and guarantees',
    keywords: 'maintainer reference documentation docs api option options default defaults flag parameter signature return returns',
  },
  {
    name: 'Newcomer',
    role: 'newcomer / first-time user',
    affiliation: 'learners',
    focus: 'the simplest complete path, prerequisites and common mistakes',
    keywords: 'newcomer beginner first learn learning simple simplest start started tutorial introduction basic basics',
  },
  {
    name: 'Troubleshooter',
    role: 'support engineer',
    affiliation: 'support and operations',
    focus: 'errors, limits, edge cases and pitfalls',
    keywords: 'error errors fail fails failure bug problem pitfall pitfalls edge limit limits troubleshoot debug exception crash why',
  },
  {
    name: 'Release Historian',
    role: 'release historian',
    affiliation: 'release notes and changelogs',
    focus: 'changes between versions, deprecations and migrations',
    keywords: 'version versions release changelog history deprecated deprecation migrate migration upgrade changed new old legacy',
  },
  {
    name: 'Performance Engineer',
    role: 'performance engineer',
    affiliation: 'benchmarks and profiling',
    focus: 'performance: time, memory and resources, and the alternatives',
    keywords: 'performance fast faster slow speed memory large big scale efficient benchmark resources cost alternative alternatives',
  },
  {
    name: 'Security Reviewer',
    role: 'security reviewer',
    affiliation: 'security review',
    focus: 'unsafe uses, risks and safe defaults',
    keywords: 'security secure safe unsafe risk risks vulnerability permission permissions injection trust sandbox',
  },
];

const stemsOf = (catalogue: readonly Archetype[]) => catalogue.map((a) => new Set(a.keywords.split(/\s+/).map(stem)));
const KEYWORD_STEMS = new Map<readonly Archetype[], Set<string>[]>([
  [PERSPECTIVE_CATALOGUE, stemsOf(PERSPECTIVE_CATALOGUE)],
  [PRACTICAL_CATALOGUE, stemsOf(PRACTICAL_CATALOGUE)],
]);
// A perspective the reviewer asked for gets this much more of the budget than the others.
const REQUESTED_WEIGHT = 1.5;

/** The catalogue for the kind of question: a how-to or reference question about a tool, or one about the world. */
export function catalogueFor(question: string): readonly Archetype[] {
  return asksAboutTool(question) ? PRACTICAL_CATALOGUE : PERSPECTIVE_CATALOGUE;
}

export function perspectivePlannerOffline(input: PerspectivePlannerInput): PerspectivePlannerOutput {
  const catalogue = catalogueFor(input.question);
  const stems = KEYWORD_STEMS.get(catalogue)!;
  const matches = (index: number, words: readonly string[]) => words.filter((w) => stems[index]!.has(w)).length;
  const feedbackWords = input.feedback ? tokenize(input.feedback).map(stem) : [];
  const questionWords = tokenize(`${input.question} ${input.objective.includedTopics.join(' ')}`).map(stem);
  const ranked = catalogue
    .map((_, i) => ({ i, requested: matches(i, feedbackWords), fit: matches(i, questionWords) }))
    // Requested perspectives first, then those the question itself calls for, then the catalogue order.
    .sort((a, b) => b.requested - a.requested || b.fit - a.fit || a.i - b.i);
  const chosen: { i: number; requested: boolean; round: number }[] = [];
  for (let k = 0; chosen.length < input.count; k++) {
    const r = ranked[k % ranked.length];
    chosen.push({ i: r.i, requested: r.requested > 0, round: Math.floor(k / ranked.length) });
  }
  // Keep the catalogue order among the chosen so the panel reads the same way every time.
  chosen.sort((a, b) => a.round - b.round || a.i - b.i);

  const topics = input.objective.includedTopics.length > 0 ? input.objective.includedTopics : topicPhrases(input.question, 4);
  const feedbackTerms = input.feedback ? feedbackPhrases(input.feedback, 3) : [];
  const weights = chosen.map((c) => (c.requested ? REQUESTED_WEIGHT : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  return {
    perspectives: chosen.map((c, k) => {
      const a = catalogue[c.i];
      // Extra rounds of the same archetype look at a different slice of the topics.
      const slice = topics.length === 0 ? [] : rotate(topics, c.round).slice(0, 4);
      const about = slice.length > 0 ? ` concerning ${slice.join(', ')}` : ` concerning: ${input.question}`;
      const asked = feedbackTerms.length > 0 ? `; reviewer asked for: ${feedbackTerms.join(', ')}` : '';
      return {
        name: c.round === 0 ? a.name : `${a.name} ${c.round + 1}`,
        role: a.role,
        affiliation: a.affiliation,
        focus: clip(`${a.focus}${about}${asked}`, 2000),
        budgetWeight: Math.round((weights[k] / total) * 10_000) / 10_000,
      };
    }),
  };
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const n = by % items.length;
  return [...items.slice(n), ...items.slice(0, n)];
}
