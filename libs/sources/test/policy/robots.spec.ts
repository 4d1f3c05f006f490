import { parseRobots, RobotsCache } from '../../src';

const UA = 'DossierBot/0.1 (+https://dossier.example/bot)';

describe('parseRobots', () => {
  it('obeys the group naming our product token, else the * group', () => {
    const robots = parseRobots(['User-agent: *', 'Disallow: /private', '', 'User-agent: dossierbot', 'Disallow: /no-dossier'].join('\n'));
    expect(robots('/private/x', UA)).toBe(true); // our group does not disallow it
    expect(robots('/no-dossier/x', UA)).toBe(false);
    expect(robots('/private/x', 'OtherBot/2.0')).toBe(false);
    expect(robots('/no-dossier/x', 'OtherBot/2.0')).toBe(true);
  });

  it('a group naming us with no rules allows everything (no fallback to *)', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: DossierBot\nDisallow:\n');
    expect(robots('/anything', UA)).toBe(true);
    expect(robots('/anything', 'OtherBot')).toBe(false);
  });

  it('longest match wins; allow wins a tie', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /a\nAllow: /a/b\nAllow: /p\nDisallow: /p\n');
    expect(robots('/a/b/c', UA)).toBe(true);
    expect(robots('/a/c', UA)).toBe(false);
    expect(robots('/p', UA)).toBe(true);
    expect(robots('/q', UA)).toBe(true);
  });

  it('supports * and a final $', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /*.pdf$\nDisallow: /private*/\nDisallow: /exact$\n');
    expect(robots('/x/y.pdf', UA)).toBe(false);
    expect(robots('/x/y.pdf?download=1', UA)).toBe(true);
    expect(robots('/private-stuff/x', UA)).toBe(false);
    expect(robots('/private', UA)).toBe(true);
    expect(robots('/exact', UA)).toBe(false);
    expect(robots('/exact/more', UA)).toBe(true);
  });

  it('merges consecutive user-agent lines and repeated groups; keys are case-insensitive; comments and CRLF', () => {
    const txt =
      'Disallow: /orphan\r\nUSER-AGENT: a\r\nuser-agent: DossierBot # us\r\ndisallow: /one\r\nSitemap: https://x/s.xml\r\n\r\nUser-agent: dossierbot\r\nDISALLOW: /two # second group\r\n';
    const robots = parseRobots(txt);
    expect(robots('/one', UA)).toBe(false);
    expect(robots('/two', UA)).toBe(false);
    expect(robots('/one', 'a')).toBe(false);
    expect(robots('/orphan', UA)).toBe(true); // before any user-agent: belongs to no group
  });

  it('always allows /robots.txt, and everything when the file is empty', () => {
    expect(parseRobots('User-agent: *\nDisallow: /\n')('/robots.txt', UA)).toBe(true);
    expect(parseRobots('User-agent: *\nDisallow: /\n')('/', UA)).toBe(false);
    expect(parseRobots('')('/anything', UA)).toBe(true);
  });

  it('compares percent-encoding and raw UTF-8 alike', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /bücher\nDisallow: /a%3cb\nDisallow: /%7Euser\n');
    expect(robots('/b%C3%BCcher/1', UA)).toBe(false);
    expect(robots('/a%3Cb', UA)).toBe(false);
    expect(robots('/~user/x', UA)).toBe(false);
  });

  it('stays fast on hostile patterns', () => {
    const robots = parseRobots(`User-agent: *\nDisallow: /${'*a'.repeat(200)}$\n`);
    // A backtracking matcher would not finish on this at all (the hang guard stops it); no clock is asserted.
    expect(robots(`/${'a'.repeat(5000)}b`, UA)).toBe(true);
  });
});

describe('RobotsCache', () => {
  function fetcher(files: Record<string, string | null | Error>) {
    const calls: string[] = [];
    const fetchText = async (url: string) => {
      calls.push(url);
      const f = files[url];
      if (f instanceof Error) throw f;
      return f ?? null;
    };
    return { calls, fetchText };
  }

  it('fetches each origin’s robots.txt once and answers for our user agent', async () => {
    const f = fetcher({
      'https://a.example/robots.txt': 'User-agent: DossierBot\nDisallow: /private\n',
      'http://a.example:8080/robots.txt': null,
    });
    const cache = new RobotsCache({ fetchText: f.fetchText, userAgent: UA });
    expect(await cache.isAllowed('https://a.example/private/x?y=1')).toBe(false);
    expect(await cache.isAllowed('https://a.example/public')).toBe(true);
    expect(await cache.isAllowed('http://a.example:8080/private')).toBe(true); // another origin, no robots.txt
    expect(f.calls).toEqual(['https://a.example/robots.txt', 'http://a.example:8080/robots.txt']);
  });

  it('shares one fetch between concurrent questions', async () => {
    const f = fetcher({ 'https://b.example/robots.txt': 'User-agent: *\nDisallow: /x\n' });
    const cache = new RobotsCache({ fetchText: f.fetchText, userAgent: UA });
    const answers = await Promise.all([
      cache.isAllowed('https://b.example/x'),
      cache.isAllowed('https://b.example/y'),
      cache.isAllowed('https://b.example/x/z'),
    ]);
    expect(answers).toEqual([false, true, false]);
    expect(f.calls).toHaveLength(1);
  });

  it('refetches after the TTL', async () => {
    let now = 1_000_000;
    const f = fetcher({ 'https://c.example/robots.txt': '' });
    const cache = new RobotsCache({ fetchText: f.fetchText, userAgent: UA, ttlMs: 1000, now: () => now });
    await cache.isAllowed('https://c.example/');
    now += 999;
    await cache.isAllowed('https://c.example/');
    expect(f.calls).toHaveLength(1);
    now += 1;
    await cache.isAllowed('https://c.example/');
    expect(f.calls).toHaveLength(2);
  });

  it('propagates a fetch failure and does not cache it', async () => {
    const files: Record<string, string | Error> = { 'https://d.example/robots.txt': new Error('connect ETIMEDOUT') };
    const f = fetcher(files);
    const cache = new RobotsCache({ fetchText: f.fetchText, userAgent: UA });
    await expect(cache.isAllowed('https://d.example/x')).rejects.toThrow('ETIMEDOUT');
    files['https://d.example/robots.txt'] = 'User-agent: *\nDisallow: /x\n';
    await expect(cache.isAllowed('https://d.example/x')).resolves.toBe(false);
    expect(f.calls).toHaveLength(2);
  });

  it('keeps at most maxOrigins', async () => {
    const f = fetcher({});
    const cache = new RobotsCache({ fetchText: f.fetchText, userAgent: UA, maxOrigins: 2 });
    for (const host of ['e1', 'e2', 'e3', 'e1']) await cache.isAllowed(`https://${host}.example/`);
    expect(f.calls).toEqual([
      'https://e1.example/robots.txt',
      'https://e2.example/robots.txt',
      'https://e3.example/robots.txt',
      'https://e1.example/robots.txt',
    ]);
  });

  it('does not fetch for corpus documents', async () => {
    const f = fetcher({});
    const cache = new RobotsCache({ fetchText: f.fetchText, userAgent: UA });
    await expect(cache.isAllowed('corpus://docs/a.md')).resolves.toBe(true);
    expect(f.calls).toEqual([]);
  });
});
