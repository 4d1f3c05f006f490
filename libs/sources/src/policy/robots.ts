/** Whether a crawler with this user agent may fetch this path (with its query string). */
export type RobotsMatcher = (path: string, userAgent: string) => boolean;

interface Rule {
  allow: boolean;
  pattern: string;
}

interface Group {
  agents: string[];
  rules: Rule[];
}

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; what follows is ignored. */
export const MAX_ROBOTS_CHARS = 500 * 1024;

/**
 * robots.txt per RFC 9309. Groups: one or more `user-agent` lines, then their rules; groups naming the
 * same agent are merged. A crawler obeys the groups naming its product token (case-insensitive, the
 * part of the user agent before `/`), else the `*` groups, else nothing. Of the `allow`/`disallow` rules
 * that match, the longest pattern wins, `allow` on a tie; `*` matches any run of characters and a final
 * `$` anchors the end. An empty `disallow` allows everything. `/robots.txt` itself is always allowed.
 */
export function parseRobots(txt: string): RobotsMatcher {
  const groups = parseGroups(txt.slice(0, MAX_ROBOTS_CHARS));
  return (path, userAgent) => {
    const target = normaliseRobotsPath(path.startsWith('/') ? path : `/${path}`);
    if (target === '/robots.txt') return true;
    const token = productToken(userAgent);
    let rules = groups.filter((g) => g.agents.includes(token)).flatMap((g) => g.rules);
    if (rules.length === 0 && !groups.some((g) => g.agents.includes(token))) {
      rules = groups.filter((g) => g.agents.includes('*')).flatMap((g) => g.rules);
    }
    let best: Rule | undefined;
    for (const rule of rules) {
      if (!patternMatches(rule.pattern, target)) continue;
      if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
    }
    return best?.allow ?? true;
  };
}

function parseGroups(txt: string): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let inAgentRun = false;
  for (const raw of txt.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!inAgentRun || !current) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value === '*' ? '*' : productToken(value));
      inAgentRun = true;
    } else if (key === 'allow' || key === 'disallow') {
      inAgentRun = false;
      // Rules before any user-agent line belong to no group; an empty pattern matches nothing.
      if (current && value !== '') current.rules.push({ allow: key === 'allow', pattern: normaliseRobotsPath(value) });
    } else if (key === 'crawl-delay') {
      inAgentRun = false;
    }
    // sitemap and unknown keys neither end an agent run nor add a rule.
  }
  return groups;
}

/** `DossierBot/0.1 (+https://…)` → `dossierbot`. */
function productToken(userAgent: string): string {
  return (/^[A-Za-z_-]+/.exec(userAgent.trim())?.[0] ?? userAgent.trim()).toLowerCase();
}

/**
 * Patterns and paths compared in one spelling: non-ASCII and spaces percent-encoded as UTF-8, escapes
 * of unreserved characters decoded, the others with uppercase hex. `*` and `$` are left alone.
 */
export function normaliseRobotsPath(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    out += code <= 0x20 || code >= 0x7f ? encodeURIComponent(ch) : ch;
  }
  return out.replace(/%([0-9a-fA-F]{2})/g, (_w, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

/**
 * Glob match without regular expressions (patterns come from other people's servers: no backtracking
 * blow-up). The pattern is a prefix match unless it ends in `$`; each `*` part is taken at its earliest
 * occurrence, which is enough for patterns whose only wildcard is `*`.
 */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const [first = '', ...rest] = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  if (!path.startsWith(first)) return false;
  const last = rest.pop();
  if (last === undefined) return !anchored || path.length === first.length;
  let pos = first.length;
  for (const part of rest) {
    const at = path.indexOf(part, pos);
    if (at < 0) return false;
    pos = at + part.length;
  }
  if (!anchored) return path.indexOf(last, pos) >= 0;
  return path.length - last.length >= pos && path.endsWith(last);
}
