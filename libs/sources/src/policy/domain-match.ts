/**
 * Whether `host` is `domain` or one of its subdomains (`news.bbc.co.uk` is under `bbc.co.uk`;
 * `notbbc.co.uk` is not). Both lowercase, without trailing dots.
 */
export function hostMatchesDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** The longest listed domain that `host` falls under, so a specific entry beats a general one. */
export function longestDomainMatch<T>(host: string, table: ReadonlyMap<string, T>): T | undefined {
  // Walk the suffixes from the full host down: the first hit is the longest.
  const labels = host.split('.');
  for (let i = 0; i < labels.length; i++) {
    const hit = table.get(labels.slice(i).join('.'));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** A user-written domain entry in canonical form: lowercase, no scheme, path, port, `*.`/leading dot or trailing dot. */
export function normaliseDomain(entry: string): string {
  let d = entry.trim().toLowerCase();
  d = d.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  d = d.replace(/[/?#][\s\S]*$/, '');
  d = d.replace(/:\d+$/, '');
  d = d.replace(/^\*?\.+/, '').replace(/\.+$/, '');
  // IDNs in their ASCII (punycode) form, as URL hosts are.
  if (/[^\p{ASCII}]/u.test(d) && URL.canParse(`http://${d}/`)) d = new URL(`http://${d}/`).hostname;
  return d;
}
