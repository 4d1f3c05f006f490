import { CanonicalUrlError } from './errors';

/** Query parameters that only say where a click came from; the page is the same without them. */
const TRACKING_PARAMS = new Set([
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  'igshid',
  'yclid',
  'ttclid',
  'twclid',
  '_hsenc',
  '_hsmi',
  '_ga',
  '_gl',
  'mkt_tok',
  'ref',
  'ref_src',
  'spm',
  'cmpid',
]);

function isTrackingParam(rawKey: string): boolean {
  const key = safeDecode(rawKey.replace(/\+/g, ' ')).toLowerCase();
  return key.startsWith('utm_') || TRACKING_PARAMS.has(key);
}

/**
 * One spelling per page, so the same source found through two providers (or two links) is one source.
 * Rules, in order:
 * - `corpus://` URLs are returned unchanged (they are already canonical, see `corpusUrl`).
 * - Parsed as a WHATWG URL (throws `CanonicalUrlError` otherwise), which lowercases the scheme and host,
 *   punycodes IDNs, drops default ports (:80 for http, :443 for https) and turns an empty path into `/`.
 *   The host is otherwise kept: `www.example.com` and `example.com` stay different.
 * - A trailing dot on the host is dropped (`example.com.` is `example.com`).
 * - Credentials (`user:pass@`) and the fragment are dropped: neither names a different page, and a
 *   password must not reach a report.
 * - Percent-escapes of unreserved characters (A-Z a-z 0-9 - . _ ~) are decoded; the others get
 *   uppercase hex (RFC 3986 §6.2.2).
 * - Trailing slashes are removed from every path but the root: `/docs/` and `/docs` are one page on
 *   nearly every site (servers redirect one to the other), and dedup matters more than the rare exception.
 * - Tracking parameters (utm_*, gclid, fbclid, ref, ...) are removed, empty pairs dropped, and the rest
 *   sorted (by key, then value; the pairs themselves are kept byte for byte). A query left empty goes.
 * The result is idempotent: canonicalUrl(canonicalUrl(u)) === canonicalUrl(u).
 */
export function canonicalUrl(url: string): string {
  const input = url.trim();
  if (/^corpus:\/\//i.test(input)) return input;
  if (!URL.canParse(input)) throw new CanonicalUrlError(`Not a URL: ${JSON.stringify(input.slice(0, 200))}`);
  const u = new URL(input);
  u.hash = '';
  u.username = '';
  u.password = '';
  if (u.hostname.endsWith('.') && u.hostname.length > 1) u.hostname = u.hostname.replace(/\.+$/, '');

  const special = u.protocol === 'http:' || u.protocol === 'https:';
  let path = normaliseEscapes(u.pathname);
  if (special && path.length > 1) path = path.replace(/\/+$/, '') || '/';

  const pairs = u.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && pair !== '=')
    .map(normaliseEscapes)
    .map((pair) => ({ pair, key: keyOf(pair) }))
    .filter(({ key }) => !isTrackingParam(key))
    .sort((a, b) => compare(a.key, b.key) || compare(a.pair, b.pair))
    .map((p) => p.pair);
  const query = pairs.length > 0 ? `?${pairs.join('&')}` : '';

  // URL's own serialisation for the authority (IPv6 brackets, punycode), then our path and query.
  const authority = u.host ? `//${u.host}` : u.href.startsWith(`${u.protocol}//`) ? '//' : '';
  return `${u.protocol}${authority}${path}${query}`;
}

function keyOf(pair: string): string {
  const eq = pair.indexOf('=');
  return eq < 0 ? pair : pair.slice(0, eq);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function normaliseEscapes(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_whole, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch (err) {
    if (err instanceof URIError) return text; // a stray % in a key: compare it as written
    throw err;
  }
}

/** Code-unit order, independent of the locale (localeCompare is not). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Host of an http(s) URL in canonical form (lowercase, no trailing dot), or undefined for anything else. */
export function hostOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return u.hostname.replace(/\.+$/, '');
}
