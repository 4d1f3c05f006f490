import { isAllowedByPolicy, SourcePolicySchema, type SourcePolicyInput } from '../../src';

describe('SourcePolicy', () => {
  it('defaults to everything allowed, robots not consulted', () => {
    expect(SourcePolicySchema.parse({})).toEqual({ blockDomains: [], allowDomains: [], respectRobots: false });
  });

  it('normalises loosely written domains and refuses what is not one', () => {
    const p = SourcePolicySchema.parse({
      blockDomains: ['*.Example.COM', 'https://foo.org/path?x=1', '.bar.net.', 'shop.example.co.uk:8080', 'Bücher.example'],
    });
    expect(p.blockDomains).toEqual(['example.com', 'foo.org', 'bar.net', 'shop.example.co.uk', 'xn--bcher-kva.example']);
    expect(() => SourcePolicySchema.parse({ blockDomains: ['not a domain'] })).toThrow();
    expect(() => SourcePolicySchema.parse({ blockDomains: [''] })).toThrow();
    expect(() => SourcePolicySchema.parse({ blockDomain: ['typo.example'] })).toThrow(); // strict: a typo is not ignored
  });
});

describe('isAllowedByPolicy', () => {
  const block: SourcePolicyInput = { blockDomains: ['example.com'] };

  it('allows everything under an empty policy', () => {
    expect(isAllowedByPolicy('https://anything.example.net/x', {})).toEqual({ allowed: true });
  });

  it('blocks a domain and its subdomains, not look-alikes', () => {
    expect(isAllowedByPolicy('https://example.com/a', block)).toMatchObject({ allowed: false, code: 'blocked_domain' });
    expect(isAllowedByPolicy('https://deep.sub.EXAMPLE.com./a', block)).toEqual({
      allowed: false,
      code: 'blocked_domain',
      reason: 'deep.sub.example.com is blocked by the source policy (example.com)',
    });
    expect(isAllowedByPolicy('https://notexample.com/a', block)).toEqual({ allowed: true });
    expect(isAllowedByPolicy('https://example.com.evil.net/a', block)).toEqual({ allowed: true });
  });

  it('with an allow list, only those domains (and subdomains) pass; the block list still wins', () => {
    const policy: SourcePolicyInput = { allowDomains: ['gov.uk', 'europa.eu'], blockDomains: ['spam.gov.uk'] };
    expect(isAllowedByPolicy('https://www.gov.uk/x', policy)).toEqual({ allowed: true });
    expect(isAllowedByPolicy('https://ec.europa.eu/x', policy)).toEqual({ allowed: true });
    expect(isAllowedByPolicy('https://www.bbc.co.uk/x', policy)).toEqual({
      allowed: false,
      code: 'not_in_allow_list',
      reason: "www.bbc.co.uk is not in the source policy's allow list",
    });
    expect(isAllowedByPolicy('https://a.spam.gov.uk/x', policy)).toMatchObject({ allowed: false, code: 'blocked_domain' });
  });

  it('always allows corpus documents, refuses non-web URLs', () => {
    const strict: SourcePolicyInput = { allowDomains: ['gov.uk'], blockDomains: ['docs'] };
    expect(isAllowedByPolicy('corpus://docs/a.md', strict)).toEqual({ allowed: true });
    expect(isAllowedByPolicy('ftp://files.gov.uk/a', strict)).toMatchObject({ allowed: false, code: 'unsupported_url' });
    expect(isAllowedByPolicy('javascript:alert(1)', {})).toMatchObject({ allowed: false, code: 'unsupported_url' });
    expect(isAllowedByPolicy('not a url', {})).toMatchObject({ allowed: false, code: 'unsupported_url' });
  });
});
