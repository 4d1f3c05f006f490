import { z } from 'zod';
import { hostOf } from './canonical-url';
import { hostMatchesDomain, normaliseDomain } from './domain-match';

const DomainSchema = z
  .string()
  .transform(normaliseDomain)
  .pipe(
    z.string().regex(/^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/, 'not a domain name'),
  );

/**
 * A tenant's (or run's) rules for web sources. Domains match themselves and their subdomains and may be
 * written loosely (`*.example.com`, `https://Example.com/`): they are normalised on parse.
 */
export const SourcePolicySchema = z.strictObject({
  blockDomains: z.array(DomainSchema).max(10_000).default([]),
  /** Empty: every domain not blocked is allowed. Otherwise only these (and their subdomains). */
  allowDomains: z.array(DomainSchema).max(10_000).default([]),
  /** Skip pages a site's robots.txt disallows for our user agent (see `RobotsCache`). */
  respectRobots: z.boolean().default(false),
});
export type SourcePolicy = z.output<typeof SourcePolicySchema>;
export type SourcePolicyInput = z.input<typeof SourcePolicySchema>;

export type PolicyDecision =
  { allowed: true } | { allowed: false; code: 'blocked_domain' | 'not_in_allow_list' | 'unsupported_url'; reason: string };

/**
 * Whether a source may be used under the policy. Corpus documents always may (the tenant put them
 * there). The block list wins over the allow list. Only http(s) URLs can be web sources. Robots rules
 * are not checked here: they need a fetch (`RobotsCache.isAllowed`).
 */
export function isAllowedByPolicy(url: string, policy: SourcePolicyInput): PolicyDecision {
  if (/^corpus:\/\//i.test(url.trim())) return { allowed: true };
  const { blockDomains, allowDomains } = parsedPolicy(policy);
  const host = hostOf(url.trim());
  if (!host) return { allowed: false, code: 'unsupported_url', reason: 'not an http(s) URL' };
  const blocked = blockDomains.find((d) => hostMatchesDomain(host, d));
  if (blocked) return { allowed: false, code: 'blocked_domain', reason: `${host} is blocked by the source policy (${blocked})` };
  if (allowDomains.length > 0 && !allowDomains.some((d) => hostMatchesDomain(host, d))) {
    return { allowed: false, code: 'not_in_allow_list', reason: `${host} is not in the source policy's allow list` };
  }
  return { allowed: true };
}

// A run checks hundreds of URLs against one policy object: normalise its lists once. A policy object
// is treated as immutable (a changed policy is a new object).
const parsed = new WeakMap<SourcePolicyInput, SourcePolicy>();
function parsedPolicy(policy: SourcePolicyInput): SourcePolicy {
  let p = parsed.get(policy);
  if (!p) {
    p = SourcePolicySchema.parse(policy);
    parsed.set(policy, p);
  }
  return p;
}
