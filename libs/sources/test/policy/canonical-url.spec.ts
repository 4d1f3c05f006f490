import { canonicalUrl, CanonicalUrlError } from '../../src';

const CASES: [string, string][] = [
  // scheme and host lowercased, default ports dropped, fragment dropped, empty path → '/'
  ['HTTP://Example.COM:80/a?b=1#frag', 'http://example.com/a?b=1'],
  ['https://example.com:443', 'https://example.com/'],
  ['https://example.com:8443/x/', 'https://example.com:8443/x'],
  ['http://example.com:443/', 'http://example.com:443/'],
  // the host is otherwise kept: www stays
  ['http://WWW.Example.com', 'http://www.example.com/'],
  // tracking parameters removed (any case), the rest sorted by key then value
  ['https://e.com/p?utm_source=x&b=2&a=1&fbclid=z&UTM_Campaign=q&ref=hn', 'https://e.com/p?a=1&b=2'],
  [
    'https://e.com/p?gclid=1&dclid=2&msclkid=3&mc_cid=4&mc_eid=5&igshid=6&yclid=7&_hsenc=8&_hsmi=9&ref_src=10&spm=11&cmpid=12',
    'https://e.com/p',
  ],
  ['https://e.com/p?b=2&a=2&a=1', 'https://e.com/p?a=1&a=2&b=2'],
  ['https://e.com/p?reference=1&referrer=2', 'https://e.com/p?reference=1&referrer=2'],
  ['https://e.com/p?', 'https://e.com/p'],
  ['https://e.com/p?&&a=1&', 'https://e.com/p?a=1'],
  ['https://e.com/s?q=a+b&x==1', 'https://e.com/s?q=a+b&x==1'],
  // unreserved escapes decoded, the others uppercased
  ['https://e.com/%7Euser/%41b%2fc?q=%7e%2f', 'https://e.com/~user/Ab%2Fc?q=~%2F'],
  // trailing slashes removed except on the root
  ['https://e.com/docs//', 'https://e.com/docs'],
  ['https://e.com/', 'https://e.com/'],
  ['https://e.com//', 'https://e.com/'],
  // credentials dropped, trailing dot of the host dropped
  ['https://user:pw@e.com/x', 'https://e.com/x'],
  ['https://example.com./x', 'https://example.com/x'],
  // IDN and IPv6 hosts in URL form
  ['https://Bücher.example/', 'https://xn--bcher-kva.example/'],
  ['http://[::1]:80/a', 'http://[::1]/a'],
  ['  https://e.com/padded  ', 'https://e.com/padded'],
  ['MAILTO:someone@example.com', 'mailto:someone@example.com'],
];

describe('canonicalUrl', () => {
  it.each(CASES)('%s → %s', (input, expected) => {
    expect(canonicalUrl(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const [input] of CASES) expect(canonicalUrl(canonicalUrl(input))).toBe(canonicalUrl(input));
  });

  it('makes the same page from two providers one key', () => {
    expect(canonicalUrl('https://krwa.example.gov/levels/?utm_source=tavily#top')).toBe(
      canonicalUrl('https://KRWA.example.gov:443/levels?gclid=abc'),
    );
  });

  it('passes corpus URLs through unchanged', () => {
    expect(canonicalUrl('corpus://docs/a%20b/%231%20%C3%BC%3F.md')).toBe('corpus://docs/a%20b/%231%20%C3%BC%3F.md');
    expect(canonicalUrl('corpus://My%20Notes/x.md')).toBe('corpus://My%20Notes/x.md');
  });

  it('throws CanonicalUrlError for what is not a URL', () => {
    expect(() => canonicalUrl('not a url')).toThrow(CanonicalUrlError);
    expect(() => canonicalUrl('/relative/path')).toThrow(CanonicalUrlError);
  });
});
