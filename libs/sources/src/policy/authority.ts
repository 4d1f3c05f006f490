import { parseCorpusUrl } from '../search/corpus-url';
import { AuthorityClassSchema, type AuthorityClass } from './authority-class';
import { KNOWN_DOMAINS } from './authority-domains';
import { hostOf } from './canonical-url';
import { longestDomainMatch } from './domain-match';

/** Second-level labels under a country code that mean a government (`gov.uk`, `gouv.fr`, `go.jp`, ...). */
const OFFICIAL_SECOND_LEVEL = new Set(['gov', 'gouv', 'gob', 'govt', 'go', 'mil', 'gv', 'admin']);
const ACADEMIC_SECOND_LEVEL = new Set(['edu', 'ac']);
// A Map, not an object literal: a host label like `constructor` must not find Object.prototype's.
const FIRST_LABEL = new Map<string, AuthorityClass>(
  Object.entries({
    docs: 'documentation',
    doc: 'documentation',
    developer: 'documentation',
    developers: 'documentation',
    devdocs: 'documentation',
    documentation: 'documentation',
    manual: 'documentation',
    wiki: 'documentation',
    help: 'documentation',
    forum: 'forum',
    forums: 'forum',
    discourse: 'forum',
    community: 'forum',
    discuss: 'forum',
    discussions: 'forum',
    boards: 'forum',
    blog: 'blog',
    blogs: 'blog',
    news: 'news',
  } satisfies Record<string, AuthorityClass>),
);
const DOC_PATHS = new Set(['docs', 'doc', 'documentation', 'manual', 'reference', 'api-reference', 'handbook']);
/** A `.dev` site is usually a project's home; its guides and references are documentation. */
const DEV_DOC_PATHS = new Set([...DOC_PATHS, 'learn', 'guide', 'guides', 'api', 'tutorial']);

/**
 * The authority class of a web URL from its host, then its path; titles are not read for web pages
 * (headlines say "study" and "university" all the time). `corpus://` documents have no domain: their
 * path, then their title, is read for telling words (see `authorityOfWords`).
 *
 * Host rules, first match wins: the known-domain table (longest entry); a government suffix (`.gov`,
 * `.mil`, `.int`, `gov.xx`, `gouv.xx`, `go.jp`, ...); an academic one (`.edu`, `ac.xx`, `edu.xx`,
 * `uni-*`/`univ-*` hosts); a telling first label (`docs.`, `developer.`, `forum.`, `blog.`, `news.`).
 * Path rules: `/docs`, `/reference`, ... (and on `.dev` hosts `/learn`, `/guide`, ...) → documentation;
 * `/blog` → blog; `/forum`, `/forums`, `/community`, and GitHub/GitLab issues and discussions → forum.
 *
 * A corpus document whose collection has a kind (`collectionKind`, decision 0056) has that authority: every page of a
 * manual is documentation, whether it was ingested from Markdown or HTML and whatever its title says.
 */
export function authorityOf(url: string, title?: string, collectionKind?: string | null): AuthorityClass {
  const corpus = parseCorpusUrl(url);
  if (corpus) {
    const kind = AuthorityClassSchema.safeParse(collectionKind);
    if (kind.success && kind.data !== 'unknown') return kind.data;
    return authorityOfWords(corpus.path) ?? (title ? authorityOfWords(title) : undefined) ?? 'unknown';
  }
  const host = hostOf(url);
  if (!host) return 'unknown';
  return authorityOfHost(host) ?? authorityOfPath(host, new URL(url).pathname) ?? 'unknown';
}

function authorityOfHost(host: string): AuthorityClass | undefined {
  if (/^[\d.]+$/.test(host) || host.includes(':')) return undefined; // an IP address says nothing
  const known = longestDomainMatch(host, KNOWN_DOMAINS);
  if (known) return known;
  const labels = host.split('.');
  const tld = labels.at(-1) ?? '';
  const second = labels.length >= 3 ? labels.at(-2) : undefined;
  const ccTld = tld.length === 2;
  if (tld === 'gov' || tld === 'mil' || tld === 'int') return 'official';
  if (ccTld && second !== undefined && OFFICIAL_SECOND_LEVEL.has(second)) return 'official';
  if (tld === 'edu' || (ccTld && second !== undefined && ACADEMIC_SECOND_LEVEL.has(second))) return 'academic';
  if (labels.some((l) => /^(uni|univ)-/.test(l) || /^universit/.test(l))) return 'academic';
  return labels.length >= 3 ? FIRST_LABEL.get(labels[0] ?? '') : undefined;
}

function authorityOfPath(host: string, pathname: string): AuthorityClass | undefined {
  const segments = pathname.toLowerCase().split('/').filter(Boolean);
  const first = segments[0];
  if (first === undefined) return undefined;
  if (DOC_PATHS.has(first) || (host.endsWith('.dev') && DEV_DOC_PATHS.has(first))) return 'documentation';
  if (first === 'blog' || first === 'blogs') return 'blog';
  if (first === 'forum' || first === 'forums' || first === 'community') return 'forum';
  // github.com/<owner>/<repo>/issues/12, .../discussions/3
  if ((host === 'github.com' || host === 'gitlab.com') && segments.some((s) => s === 'issues' || s === 'discussions')) return 'forum';
  return undefined;
}

/** Telling words of corpus paths and titles; a phrase is written with spaces and matches across `-`, `_`, `/`. */
const WORDS: [AuthorityClass, string[]][] = [
  [
    'official',
    ['authority', 'ministry', 'agency', 'council', 'minutes', 'government', 'department', 'regulator', 'municipality', 'parliament'],
  ],
  ['academic', ['university', 'study', 'journal', 'working paper', 'research', 'thesis', 'dissertation', 'proceedings']],
  ['documentation', ['faq', 'guide', 'manual', 'technical note', 'docs', 'documentation', 'handbook']],
  ['news', ['news', 'courier', 'post', 'gazette', 'radio', 'times', 'herald', 'tribune', 'newspaper', 'magazine']],
  ['forum', ['forum', 'thread']],
  ['blog', ['blog', 'notes from']],
];

/**
 * The class of the leftmost telling word (file names tend to start with the publisher:
 * `kessmark-courier-university-study` is the Courier's article about a study, news), or undefined.
 * At one position the longer phrase wins.
 */
export function authorityOfWords(text: string): AuthorityClass | undefined {
  const normalised = ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
  let best: { at: number; length: number; cls: AuthorityClass } | undefined;
  for (const [cls, phrases] of WORDS) {
    for (const phrase of phrases) {
      const at = normalised.indexOf(` ${phrase} `);
      if (at < 0) continue;
      if (!best || at < best.at || (at === best.at && phrase.length > best.length)) best = { at, length: phrase.length, cls };
    }
  }
  return best?.cls;
}
