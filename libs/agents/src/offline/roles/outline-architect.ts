import { relevanceModel } from '../answer-relevance';
import { questionParts } from '../question-parts';
import { extractQuantities, isTime } from '../nlp/quantities';
import { normalizeWhitespace, statementStems } from '../nlp/statement-terms';
import { QUESTION_WORDS, STOPWORDS, stem, tokenize } from '../nlp/tokens';
import { clip, feedbackPhrases, stemSet, titleCase } from '../topics';
import { OutlineArchitectInput, OutlineArchitectOutput, MAX_SECTIONS } from '../../roles/outline-architect';

/** The offline outline gives a section at most this many claims, its most direct answers first. */
export const MAX_CLAIMS_PER_SECTION = 30;
/**
 * The offline outline's claims, at most: the most relevant to the question, wherever they are placed. 40 left out a
 * claim stating a key point on 6 of git-manual's first 9 questions, ranked 41st–60th (docs/decisions/0111).
 */
export const MAX_OUTLINE_CLAIMS = 60;
/**
 * A claim that covers less than this (weighted) share of the main question's terms, and answers no sub-question by
 * its kind either, is off topic: a fish-restocking announcement does not answer a question about water levels.
 */
const MIN_RELEVANCE = 0.2;
/** The outline keeps claims scoring at least this share of the best claim's relevance: the tail that only shares a word goes. */
const RELEVANCE_FLOOR = 0.3;
/**
 * The outline keeps at least this many on-topic claims, below the floor if need be: when one claim scores far above the
 * rest (a dated timeline entry that repeats the question's words), the floor relative to it cut a short report's own
 * answers — the ferry notice's water taxi replacing the ferry, in a report of 9 claims (issue 25).
 */
const MIN_OUTLINE_CLAIMS = 12;
/** A claim's own question (the one its evidence was found for) counts this much in its favour. */
const OWN_QUESTION_BONUS = 0.1;
/** A claim's source's standing for a question (the mean of its best claims' scores) counts this much in its favour. */
const SOURCE_WEIGHT = 0.5;
/** How well a claim answers its best sub-question counts this much beside how well it answers the question itself. */
const SUB_QUESTION_WEIGHT = 0.25;
/**
 * A claim from a source standing at least this high for the question is on topic whatever its own words: the page
 * that answers states some facts without the question's words ("The new commit has the same parents and author").
 */
const SOURCE_ON_TOPIC = 0.5;
/** The share of its relevance a claim keeps when its own words name only the questions' setting (their proper names). */
const SETTING_ONLY_SHARE = 0.5;
/** A source's standing is the mean of this many of its best claims' scores (missing ones count 0). */
const SOURCE_CLAIMS = 3;
/**
 * A claim from the page the question names counts this much more: the manual's page on what is asked ("git restore",
 * "subprocess.run") states its defaults and options in words of its own, and other pages sharing the question's words
 * outranked them (git-manual's "If neither option is specified, by default the working tree is restored.", ranked
 * 145th of 168; decision 0131).
 */
export const NAMED_PAGE_BONUS = 0.5;
/** Claims this similar (token Jaccard, figures included) say the same thing: the report states it once. */
const SAME_STATEMENT = 0.7;

type Claim = OutlineArchitectInput['claims'][number];
interface Group {
  /** `folded`: put there from a perspective's section without a heading (nameSections), not by its own best score. */
  claims: { claim: Claim; score: number; folded?: boolean }[];
  title: string;
  purpose: string;
}

function tokenSet(text: string): Set<string> {
  return new Set(tokenize(text).map(stem));
}

/** Restatements share most words and every figure: a different figure is a disagreement, not a repeat. */
function restates(a: Set<string>, b: Set<string>): boolean {
  const figures = (x: Set<string>) =>
    [...x]
      .filter((t) => /\d/.test(t))
      .sort()
      .join(' ');
  return figures(a) === figures(b) && jaccard(a, b) >= SAME_STATEMENT;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared === 0 ? 0 : shared / (a.size + b.size - shared);
}

/** A question's text as sections and clauses are matched by: whitespace and case do not count. */
const questionKey = (text: string) => normalizeWhitespace(text).toLowerCase();
/** The keys (`questionKey`) of the clauses a question asks. */
const clauseKeys = (question: string) => new Set(questionParts(question).clauses.map(questionKey));

/** A capitalised word (with a ".js"-style suffix) that does not open the question: a proper name of its setting. */
const PROPER_NAME = /(?<![.?!:]\s|^)\b[A-Z][\w-]*(?:\.[a-z]+)*/g;

/** A heading names a perspective's section when it stands over at least this many of its claims (or half of them). */
const MIN_HEADING_CLAIMS = 2;

/**
 * Titles from the sources and the question (issue 25 item 3, decision 0089). A section answering a clause of the
 * question (or the question itself) keeps that clause as its title. A section answering a perspective's sub-question
 * — a template such as "How is X measured, and what mechanisms explain it?" — is named by the heading its claims'
 * evidence sits under in the sources (the most common among them, when it stands over at least MIN_HEADING_CLAIMS or
 * half of them; ties go to the most direct answer's); when no heading does, its claims join the clause sections they answer best, and the template is never a heading
 * (it stays only when no clause section can take them, and then the weaker heading goes first). Never a key phrase of the claims (decision 0023). A title
 * another section already has: the two are one section when their claims fit in one.
 */
function nameSections(
  question: string,
  sections: { question: string; group: Group }[],
  scoreOf: (claim: Claim, section: number) => number,
): void {
  const clauses = clauseKeys(question).add(questionKey(question));
  const isClause = sections.map((s) => clauses.has(questionKey(s.question)));
  // What the question asks about, without its setting's names ("Node.js", "Lake Varen"), which every heading of the
  // corpus may share; the names only when the question has nothing else.
  const asked = [question, ...questionParts(question).clauses].join(' ');
  const topical = statementStems(asked.replace(PROPER_NAME, ' '));
  const questionStems = topical.size > 0 ? topical : statementStems(asked);
  const named = new Map<string, Group>();
  sections.forEach(({ group }, i) => {
    if (group.claims.length === 0) return;
    if (!isClause[i]) {
      const ranked = [...group.claims].sort((a, b) => b.score - a.score);
      const counts = new Map<string, number>();
      const titles = new Set<string>();
      for (const c of ranked)
        if (c.claim.heading) {
          counts.set(c.claim.heading, (counts.get(c.claim.heading) ?? 0) + 1);
          if (c.claim.headingIsTitle) titles.add(c.claim.heading);
        }
      const mostCommon = (among: [string, number][]) =>
        among.reduce<[string | null, number]>((best, h) => (h[1] > best[1] ? h : best), [null, 0]);
      // A heading names the section only when it shares a word with the question: "Event: 'warning'" over claims of a
      // run on the test runner names nothing the reader asked about (decision 0098). Otherwise its claims join the
      // clause sections, as when no heading stands over them.
      const [heading, n] = mostCommon([...counts].filter(([h]) => [...statementStems(h)].some((t) => questionStems.has(t))));
      // A heading names the section when it stands over several of its claims, or half of them: a document's title
      // over one claim of twelve does not say what the other eleven are about. A title (a document without headings
      // nearer its passages: "Irrigation, Climate and Regulation in the Decline of Lake Varen") names the whole
      // document, so only a section that is mostly that document's claims (decision 0102).
      const names = heading !== null && (titles.has(heading) ? 2 * n >= ranked.length : n >= MIN_HEADING_CLAIMS || 2 * n >= ranked.length);
      if (heading !== null && names) group.title = clip(heading, 400);
      else {
        const left: Group['claims'] = [];
        for (const c of group.claims) {
          const to = sections
            .map((_, j) => j)
            .filter((j) => isClause[j] && sections[j]!.group.claims.length < MAX_CLAIMS_PER_SECTION)
            .sort((a, b) => scoreOf(c.claim, b) - scoreOf(c.claim, a))[0];
          if (to === undefined) left.push(c);
          else sections[to]!.group.claims.push({ claim: c.claim, score: scoreOf(c.claim, to), folded: true });
        }
        group.claims = left;
        if (left.length === 0) return;
        // The clause sections are full: a heading over fewer of its claims still names it better than the template.
        if (heading !== null) group.title = clip(heading, 400);
        // Claims under headings that name nothing of the question, with no room left beside its answers: a section
        // titled by such a heading, or by the template, is off the reader's question, so they are left out (0098).
        else if (counts.size > 0) {
          group.claims = [];
          return;
        }
      }
    }
    const same = named.get(group.title.toLowerCase());
    if (same && same !== group && same.claims.length + group.claims.length <= MAX_CLAIMS_PER_SECTION) {
      same.claims.push(...group.claims);
      group.claims = [];
      return;
    }
    if (!same) named.set(group.title.toLowerCase(), group);
  });
}

/** What a clause asks by its kind, and the words a sentence answering it uses (decision 0105). */
const KIND_TERMS: readonly { kind: 'size' | 'cause' | 'onset'; asks: RegExp; terms: string }[] = [
  {
    kind: 'size',
    asks: /\bhow (?:large|much|far|big|many|great|severe|deep|high|low|small)\b|\b(?:size|extent|amount|magnitude)\b/i,
    terms: 'fall fell fallen drop dropped decline declined lower lowest loss lost lose shrank shrunk shrink reduced reduction',
  },
  {
    kind: 'cause',
    asks: /^why\b|\b(?:caused?|causes|causing|reasons?|explain|explains|drivers?|due)\b/i,
    terms:
      'cause caused causes attribute attributes attributed explain explains explained due driver drivers factor factors reason reasons contribute contributed responsible blame blames',
  },
  {
    kind: 'onset',
    // "When I backport a fix with git cherry-pick, how do I record …?" asks how, not when: a "when" clause followed by
    // the question's own asking word is its setting (decision 0168).
    asks: /^when\b(?![^?]*?,\s*(?:how|what|why|which|where|who|can|could|should|do|does|did|is|are|will|would)\b)|\b(?:begin|began|start|started|onset)\b/i,
    terms: 'began begin begins start started starts onset since',
  },
];
/**
 * Size words that can qualify the noun after them ("lower rainfall"): so placed, they speak of the clause only when
 * that noun (or the next word: "reduced water levels") is its subject.
 */
const COMPARATIVES = new Set(['lower', 'lowest', 'reduced']);
/** A measure with a unit of length, area or volume ("212.6 m", "38.1 km²", "52 million m³"): what a "how large" answers with. */
const MEASURE =
  /\d\s*(?:m|km|km²|m²|m³|ha|ft|metres?|meters?|kilometres?|feet|hectares?|cubic metres?|square kilomet(?:re|er)s?)(?![\p{L}])/iu;

/** A clause's terms: its subject's (`subject`) and those of its kind of question (`kind`), as stems. */
export interface ClauseTerms {
  subject: Set<string>;
  kind: Set<string>;
  /** A "how large" clause: a measure answers it. */
  size: boolean;
}

/**
 * The words a sentence about a clause shares with it: the clause's own subject terms — its content words, less the
 * setting's names ("Lake Varen") and a word that only qualifies the next ("water" in "water level") — and the words
 * that answer its kind of question ("how large": fall, drop, loss…; "what caused": cause, attribute, explain…).
 */
export function clauseTerms(clause: string): ClauseTerms {
  const raw = clause.replace(PROPER_NAME, ' , ').replace(/['’]s\b/g, ' ');
  const words = tokenize(raw);
  const kinds = KIND_TERMS.filter((k) => k.asks.test(clause));
  // The word that asks ("caused" in "What caused the decline …?", "begin" in "When did it begin?") is the question's,
  // not its subject's: left in the subject, a sentence's "cause" never counted as a word of the clause's kind (0165).
  const asking = kinds.map((k) => new RegExp(k.asks.source.replace(/^\^/, ''), 'i'));
  const content = (w: string | undefined) =>
    w !== undefined && !STOPWORDS.has(w) && !QUESTION_WORDS.has(w) && /\p{L}/u.test(w) && !asking.some((a) => a.test(w));
  const subject = new Set<string>();
  words.forEach((w, i) => {
    if (!content(w)) return;
    // "water level": "water" qualifies "level" when the two stand side by side in the clause ("figures differ": a
    // plural is a subject, not a qualifier).
    if (!/s$/.test(w) && content(words[i + 1]) && new RegExp(String.raw`\b${w}\s+${words[i + 1]}\b`, 'i').test(raw)) return;
    subject.add(stem(w));
  });
  const kind = new Set(kinds.flatMap((k) => k.terms.split(' ').map(stem)));
  return { subject, kind, size: kinds.some((k) => k.kind === 'size') };
}

/**
 * A sentence belongs to a clause's section only when it is about the clause's question (decision 0105): it uses a word
 * of the clause's kind of question (a cause, a fall, an onset), or, sharing its subject, answers it as its kind asks (a
 * measure for "how large") — or, for a clause of no known kind, shares its subject. "Test netting … found pike at
 * approx. 85% of those levels" shares "level" with "How large was the decline of the water level?" and answers nothing.
 */
export function aboutClause(statement: string, terms: ClauseTerms): boolean {
  const words = tokenize(statement);
  const own = new Set(words.map(stem));
  // A kind word that is also the clause's subject ("decline" in "How large was the decline …?") says nothing of the
  // kind by itself: "Fish stocks … declined during the drawdown" shares the word and answers nothing (decision 0112).
  // Nor does a comparative naming something else's size: "attributes the decline mainly to lower rainfall" gives a
  // cause, not the decline's size ("reduced water levels" still speaks of the levels; decision 0165).
  const kindWord = (w: string, i: number) => {
    const t = stem(w);
    if (!terms.kind.has(t) || terms.subject.has(t)) return false;
    // Said of what went before ("the level is lower than …"): it speaks of that.
    if (!COMPARATIVES.has(w) || words[i + 1] === undefined || STOPWORDS.has(words[i + 1]!)) return true;
    return words.slice(i + 1, i + 3).some((x) => terms.subject.has(stem(x)));
  };
  if (words.some(kindWord)) return true;
  if (![...terms.subject].some((t) => own.has(t))) return false;
  return terms.kind.size === 0 || (terms.size && MEASURE.test(statement));
}

/**
 * A sentence that stands alone under a clause must say what the clause asks of its subject (decision 0112): share its
 * subject and, beyond that, use a word of its kind or (for "how large") give a measure. True for a clause of no known
 * kind, which no rule here reads.
 */
export function answersClause(statement: string, terms: ClauseTerms): boolean {
  if (terms.kind.size === 0) return true;
  const own = new Set(tokenize(statement).map(stem));
  // A clause that names only its kind ("Causes") has no subject to share.
  const subject = [...terms.subject].filter((t) => !terms.kind.has(t));
  if (subject.length > 0 && !subject.some((t) => own.has(t))) return false;
  // "How large …" is answered by a figure ("42–50 million m³ per year"), not by a date.
  return (
    [...terms.kind].some((t) => own.has(t) && !terms.subject.has(t)) ||
    (terms.size && (MEASURE.test(statement) || extractQuantities(statement).some((q) => !isTime(q))))
  );
}

/** Whether a statement shares any of a clause's words, its subject's or its kind's. */
function sharesTerm(statement: string, terms: ClauseTerms): boolean {
  const own = new Set(tokenize(statement).map(stem));
  return [...terms.subject, ...terms.kind].some((t) => own.has(t));
}

/**
 * Each clause section holds only claims about its clause (decision 0105). A claim folded in from a perspective's section
 * (nameSections: the last resort put it where it scored least badly) must be about it (`aboutClause`), else it goes to
 * the clause it is about that it answers best, or is left out; a claim placed by its own best score stays unless it
 * shares no word with any clause. Only for a question whose every clause has a known kind. Only when the question has two clauses or more: a question
 * asking one thing is its own section, whose claims the relevance floor has already chosen.
 */
function keepToClauses(
  question: string,
  sections: { question: string; group: Group }[],
  scoreOf: (claim: Claim, section: number) => number,
): void {
  const clauses = clauseKeys(question);
  const at = sections.flatMap((s, i) => (clauses.has(questionKey(s.question)) ? [i] : []));
  if (at.length < 2) return;
  const terms = new Map(at.map((i) => [i, clauseTerms(sections[i]!.question)]));
  // Only when every clause says what kind of answer it wants (how large, what caused, when): a clause of no known kind
  // ("what level does the root logger log at by default?") is answered in words no rule here knows, and python-stdlib's
  // q03 lost "This function should be called from the main thread …" to it.
  if ([...terms.values()].some((t) => t.kind.size === 0)) return;
  const moved: { claim: Claim; to: number }[] = [];
  for (const i of at) {
    const group = sections[i]!.group;
    group.claims = group.claims.filter((c) => {
      // A claim placed by its own best score stays unless it shares no word with any clause (a licence granted in 2014,
      // a method); one folded in from a perspective's section must be about its clause.
      // The heading a claim stands under in its source says what it is about too ("logging.basicConfig(**kwargs)" over
      // "This function should be called from the main thread …"); a document's title names the whole document, not it.
      const heading = c.claim.heading && !c.claim.headingIsTitle ? c.claim.heading : '';
      // Not about its clause while it is about another ("a sharp fall in water level" under "What caused …", placed
      // there by its score or by a heading every clause shares, "Water level decline"): it goes to the one it is about,
      // the one it scores best for when several (0165).
      const about = (j: number) => aboutClause(c.claim.statement, terms.get(j)!);
      if (!about(i)) {
        const other = at.filter((j) => j !== i && about(j)).sort((a, b) => scoreOf(c.claim, b) - scoreOf(c.claim, a))[0];
        if (other !== undefined) {
          moved.push({ claim: c.claim, to: other });
          return false;
        }
      }
      if (!c.folded) return at.some((j) => sharesTerm(c.claim.statement, terms.get(j)!) || sharesTerm(heading, terms.get(j)!));
      if (about(i) || sharesTerm(heading, terms.get(i)!)) return true;
      const to = at
        .filter((j) => j !== i && sharesTerm(heading, terms.get(j)!))
        .sort((a, b) => scoreOf(c.claim, b) - scoreOf(c.claim, a))[0];
      if (to !== undefined) moved.push({ claim: c.claim, to });
      return false;
    });
  }
  for (const { claim, to } of moved) {
    const group = sections[to]!.group;
    if (group.claims.length < MAX_CLAIMS_PER_SECTION) group.claims.push({ claim, score: scoreOf(claim, to) });
  }
}

const sameQuestion = (a: string, b: string) => questionKey(a) === questionKey(b);

/**
 * One section per sub-question, titled by it, in the order the questions were asked (the question's own clauses
 * first, then the perspectives'); the main question has a section of its own only when nothing else was asked. The
 * report keeps the MAX_OUTLINE_CLAIMS claims most relevant to the question itself (its sub-questions count a quarter),
 * each scored with what it stands under in its source and its source's standing (docs/decisions/0039); each goes to
 * the sub-question it answers best; off-topic claims and restatements are left out; within a section the most direct
 * answers come first. Interview memos follow, each a section of its own with its claims. A reviewer's
 * feedback applies to both: a phrase that names a memo (its analyst, role or focus) moves that memo to the front; any
 * other phrase gets a section of its own, before the rest, holding the claims that state it, taken from the
 * sub-questions and the memos alike.
 */
export function outlineArchitectOffline(input: OutlineArchitectInput): OutlineArchitectOutput {
  const memos = input.memos ?? [];
  const memoOf = new Map<string, number>();
  memos.forEach((m, i) => m.claimIds.forEach((id) => memoOf.set(id, i)));
  const model = relevanceModel(input.claims.map((c) => c.statement));
  // A question that asks several things is answered by its clauses' sections; one that asks one thing is itself the
  // first section.
  const several = questionParts(input.question).clauses.length > 1;
  const subQuestions = input.questions.filter((q) => !several || !sameQuestion(q.text, input.question));
  const asked = (subQuestions.length > 0 ? subQuestions : [{ id: '', text: input.question }]).slice(0, MAX_SECTIONS);
  const phrases = input.feedback ? feedbackPhrases(input.feedback, 2) : [];
  const memoStems = memos.map((m) => stemSet(`${m.title} ${m.purpose}`));
  const memoNamed = (phrase: string) => {
    const wanted = tokenize(phrase).map(stem);
    return memoStems.findIndex((ms) => wanted.length > 0 && wanted.every((w) => ms.has(w)));
  };
  const named = [...new Set(phrases.map(memoNamed).filter((i) => i >= 0))];
  const requested = phrases.filter((p) => memoNamed(p) < 0);
  const groups: Group[] = [
    ...requested.map((p) => ({ claims: [], title: clip(titleCase(p), 120), purpose: `Requested by the reviewer: ${p}.` })),
    ...asked.map((q) => ({ claims: [], title: clip(normalizeWhitespace(q.text), 400), purpose: clip(`Answers: ${q.text}`, 2000) })),
  ];
  const questionGroup = (i: number) => groups[requested.length + i];
  const taken = new Set<string>();
  // Questions scored: the main question (index asked.length) and each asked one.
  const scored = [...asked, { id: '', text: input.question }];
  const mainIndex = asked.length;
  const ownScores = scored.map(
    (q) =>
      new Map(
        input.claims.map((c) => [
          c.id,
          model.score(q.text, c.statement, c) + (q.id !== '' && q.id === c.questionId ? OWN_QUESTION_BONUS : 0),
        ]),
      ),
  );
  const own = (i: number, c: Claim) => ownScores[i]?.get(c.id) ?? 0;
  // A source's standing for each question: the mean of its best claims' scores. The page that answers a question holds
  // several answering sentences, one of which may share no word with the question (the description under a term
  // line); a page found for one incidental sentence has one.
  const bySource = new Map<string, Claim[]>();
  for (const c of input.claims) for (const s of new Set(c.sourceIds ?? [])) bySource.set(s, [...(bySource.get(s) ?? []), c]);
  const standingsBy = (value: (i: number, c: Claim) => number) =>
    scored.map((_, i) => {
      const m = new Map<string, number>();
      for (const [s, cs] of bySource) {
        const top = cs
          .map((c) => value(i, c))
          .sort((a, b) => b - a)
          .slice(0, SOURCE_CLAIMS);
        m.set(s, top.reduce((a, b) => a + b, 0) / SOURCE_CLAIMS);
      }
      return m;
    });
  const standings = standingsBy(own);
  // Whether a source is about the question goes by how well its best claims cover the question's terms, without the
  // kind bonus: a release full of figures is no more about a "how large" question for having them.
  const coverages = standingsBy((i, c) => model.coverage(scored[i]!.text, c.statement, c));
  const standing = (i: number, c: Claim) => Math.max(0, ...(c.sourceIds ?? []).map((s) => standings[i]?.get(s) ?? 0));

  // A claim goes to the clause of the question it answers best for that clause: its score there over the best any claim
  // has there. Raw scores favoured the shortest clause: "Can I cherry-pick a merge commit?" is covered whole by many of
  // a manual page's sentences, "When I backport a fix …, how do I record which commit it came from?" by none, so every
  // sentence of the page went under the first, the one saying how to record the commit too (git-manual q05; 0168).
  // Another sub-question (a perspective's) is measured against the best clause's scale: scaled by its own best, a vague
  // question that no claim answers well drew claims from the clauses they answer. A question asking one thing has no
  // clauses to weigh against each other: its scores stay as they are (scaled, its own section took claims its
  // perspectives' sections had held, up to its cap, and the rest were cut: velora-recall q05 lost its answer).
  const placing = (i: number, c: Claim) => own(i, c) + SOURCE_WEIGHT * standing(i, c);
  const clauseTexts = clauseKeys(input.question);
  const bests = asked.map((_, i) => Math.max(Number.EPSILON, ...input.claims.map((c) => placing(i, c))));
  const isClause = (q: { text: string }) => several && clauseTexts.has(questionKey(q.text));
  const widest = Math.max(Number.EPSILON, ...asked.flatMap((q, i) => (isClause(q) ? [bests[i]!] : [])));
  const clauseOf = asked.map((q) => (isClause(q) ? clauseTerms(q.text) : null));
  // Scaled up only for a claim about the clause (aboutClause, for a clause of a known kind): "Test netting … found pike at
  // approx. 85% of those levels" shares "level" with "How large was the decline …?" and answers nothing; scaled, it
  // left the perspective's section it is folded out of for the clause, where it stayed (the demo; decision 0105).
  const scale = (i: number, claim: Claim) => {
    const terms = clauseOf[i];
    if (!terms || (terms.kind.size > 0 && !aboutClause(claim.statement, terms))) return 1;
    return widest / bests[i]!;
  };
  const candidates: { claim: Claim; relevance: number; own: number; section: number; score: number; scores: number[] }[] = [];
  for (const claim of input.claims) {
    const stems = statementStems(claim.statement);
    const wanted = requested.findIndex((p) =>
      tokenize(p)
        .map(stem)
        .every((w) => stems.has(w)),
    );
    if (wanted >= 0) {
      groups[wanted].claims.push({ claim, score: 1 });
      taken.add(claim.id);
      continue;
    }
    if (memoOf.has(claim.id)) continue;
    const scores = asked.map((_, i) => placing(i, claim) * scale(i, claim));
    const best = scores.reduce((bi, sc, i) => (sc > scores[bi] ? i : bi), 0);
    const onTopic =
      model.coverage(input.question, claim.statement, claim) >= MIN_RELEVANCE ||
      model.coverage(asked[best].text, claim.statement, claim) >= MIN_RELEVANCE ||
      Math.max(0, ...(claim.sourceIds ?? []).map((s) => coverages[mainIndex]?.get(s) ?? 0)) >= SOURCE_ON_TOPIC;
    if (!onTopic) continue;
    // What the report keeps is chosen by how well a claim answers the question itself (its sub-questions second):
    // each sub-question taking its own best claims filled the sections of broad perspective questions ("Why do sources
    // report different figures for …") with claims sharing one word, and capped the sections that answer.
    // A claim whose own words name nothing of the questions but their setting ("the authority released 180,000 fry
    // into Lake Varen", in a run on the lake's water level) answers only through its context and the names every claim
    // shares: it counts half.
    const itself = claim.defines ? { defines: claim.defines } : {};
    const topical = scored.some((q) => model.topicalCoverage(q.text, claim.statement, itself) > 0);
    const relevance =
      (own(mainIndex, claim) +
        SOURCE_WEIGHT * standing(mainIndex, claim) +
        SUB_QUESTION_WEIGHT * Math.max(...asked.map((_, i) => own(i, claim)))) *
      (topical ? 1 : SETTING_ONLY_SHARE);
    const fromNamedPage = claim.fromNamedPage ? NAMED_PAGE_BONUS : 0;
    candidates.push({ claim, relevance: relevance + fromNamedPage, own: relevance, section: best, score: scores[best], scores });
  }
  candidates.sort((a, b) => b.relevance - a.relevance);
  // The floor goes by the claims' own relevance: the named page's bonus orders the list, it does not cut its tail.
  const floor = Math.max(0, ...candidates.map((c) => c.own)) * RELEVANCE_FLOOR;
  const stated: Set<string>[] = [];
  // What the reviewer asked for comes first, once.
  for (const g of groups.slice(0, requested.length)) {
    const first: Group['claims'] = [];
    for (const c of g.claims) {
      const tokens = tokenSet(c.claim.statement);
      if (first.length >= MAX_CLAIMS_PER_SECTION || stated.some((t) => restates(t, tokens))) continue;
      stated.push(tokens);
      first.push(c);
    }
    g.claims = first;
  }
  let kept = 0;
  for (const c of candidates) {
    if (kept >= MAX_OUTLINE_CLAIMS || (c.relevance < floor && kept >= MIN_OUTLINE_CLAIMS)) break;
    // A claim whose section is full goes to the next it answers best that has room: dropped, it took answers with it
    // ("gc.reflogExpire … defaults to 90 days" in git-manual q04, once the clauses' scales sent more claims to the gc
    // clause; 0168).
    const section = [
      c.section,
      ...c.scores
        .map((sc, i) => ({ sc, i }))
        .sort((a, b) => b.sc - a.sc)
        .map((x) => x.i),
    ].find((i) => questionGroup(i).claims.length < MAX_CLAIMS_PER_SECTION);
    if (section === undefined) continue;
    const tokens = tokenSet(c.claim.statement);
    if (stated.some((t) => restates(t, tokens))) continue;
    stated.push(tokens);
    questionGroup(section).claims.push({ claim: c.claim, score: c.scores[section]! });
    kept++;
  }
  const scoresOf = new Map(candidates.map((c) => [c.claim.id, c.scores]));
  nameSections(
    input.question,
    asked.map((q, i) => ({ question: q.text, group: questionGroup(i) })),
    (claim, i) => scoresOf.get(claim.id)?.[i] ?? 0,
  );
  keepToClauses(
    input.question,
    asked.map((q, i) => ({ question: q.text, group: questionGroup(i) })),
    (claim, i) => scoresOf.get(claim.id)?.[i] ?? 0,
  );
  const grouped = groups.flatMap((g) => {
    // Within a section, the most direct answer to its question first.
    const ranked = [...g.claims].sort((a, b) => b.score - a.score).slice(0, MAX_CLAIMS_PER_SECTION);
    return ranked.length > 0 ? [{ title: g.title, purpose: g.purpose, claimIds: ranked.map((c) => c.claim.id) }] : [];
  });
  // Every memo stays a section (its analyst's interview is in the report), less what a requested section took.
  const memoSection = (i: number) => ({ ...memos[i]!, claimIds: memos[i]!.claimIds.filter((id) => !taken.has(id)) });
  const sections = [...named.map(memoSection), ...grouped, ...memos.flatMap((_, i) => (named.includes(i) ? [] : [memoSection(i)]))];
  if (sections.length === 0)
    return {
      sections: [
        { title: clip(normalizeWhitespace(input.question), 400), purpose: clip(`Answers: ${input.question}`, 2000), claimIds: [] },
      ],
    };
  return { sections };
}
