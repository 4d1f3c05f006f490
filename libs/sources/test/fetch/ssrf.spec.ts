import { BlockedAddressError, BlockedPortError, BlockedSchemeError, SafeFetcher, type ResolvedAddress } from '../../src';
import { startGuard, startServer, type Guard, type TestServer } from './servers';

/**
 * The SSRF acceptance suite. Each case aims at a guard listener on a loopback address; the fetch must fail
 * with the typed error AND the guard must have received zero connections. The guards' ports are on the
 * policy's allowed ports, so these cases are refused by the address checks, not by the port check.
 */
describe('SafeFetcher SSRF guard', () => {
  let guard4: Guard;
  let guard6: Guard | null;
  let publicServer: TestServer;

  beforeAll(async () => {
    guard4 = (await startGuard('127.0.0.1'))!;
    guard6 = await startGuard('::1');
    publicServer = await startServer((req, res) => {
      const to = /^\/redirect\?to=(.*)$/.exec(req.url ?? '')?.[1];
      if (to !== undefined) {
        res.writeHead(302, { location: decodeURIComponent(to) }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>public page</p>');
    });
  });
  afterAll(async () => {
    await guard4?.close();
    await guard6?.close();
    await publicServer?.close();
  });

  const guardPorts = (): number[] => [80, 443, guard4.port, ...(guard6 ? [guard6.port] : [])];
  const fetcher = (resolve?: (host: string) => Promise<ResolvedAddress[]>, testAllowlist: string[] = []) =>
    new SafeFetcher({ allowedPorts: guardPorts(), timeoutMs: 3000, testAllowlist }, resolve ? { resolve } : {});
  const guardConnections = () => guard4.connections() + (guard6?.connections() ?? 0);

  let before: number;
  beforeEach(() => {
    before = guardConnections();
  });
  afterEach(() => {
    // Every case: not one connection reached a guard.
    expect(guardConnections()).toBe(before);
  });

  it('control: the guards do count connections, so "zero connections" below means something', async () => {
    const open = new SafeFetcher({ allowedPorts: guardPorts(), timeoutMs: 3000, testAllowlist: [`127.0.0.1:${guard4.port}`] });
    await expect(open.fetch(`http://127.0.0.1:${guard4.port}/`)).rejects.toThrow();
    expect(guard4.connections()).toBe(before + 1);
    before = guardConnections();
  });

  const literalCases: [string, () => string, string][] = [
    ['loopback IPv4', () => `http://127.0.0.1:${guard4.port}/`, '127.0.0.1'],
    ['unspecified 0.0.0.0 (reaches localhost on Linux)', () => `http://0.0.0.0:${guard4.port}/`, '0.0.0.0'],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['IPv4-mapped private', () => 'http://[::ffff:10.0.0.1]/', '::ffff:a00:1'],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${guard4.port}/`, '::ffff:7f00:1'],
    ['decimal 2130706433', () => `http://2130706433:${guard4.port}/`, '127.0.0.1'],
    ['hex 0x7f000001', () => `http://0x7f000001:${guard4.port}/`, '127.0.0.1'],
    ['octal 0177.0.0.1', () => `http://0177.0.0.1:${guard4.port}/`, '127.0.0.1'],
    ['short 127.1', () => `http://127.1:${guard4.port}/`, '127.0.0.1'],
    ['private 10/8', () => 'http://10.0.0.1/', '10.0.0.1'],
    ['private 192.168/16', () => 'http://192.168.1.1/', '192.168.1.1'],
    ['private 172.16/12', () => 'http://172.31.255.255/', '172.31.255.255'],
    ['CGNAT', () => 'http://100.64.0.1/', '100.64.0.1'],
    ['unique-local IPv6', () => 'http://[fd00::1]/', 'fd00::1'],
    ['AWS IPv6 metadata', () => 'http://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['link-local IPv6', () => 'http://[fe80::1]/', 'fe80::1'],
    ['unspecified IPv6', () => 'http://[::]/', '::'],
  ];

  it.each(literalCases)('refuses %s', async (_name, url, address) => {
    const resolve = jest.fn(async (): Promise<ResolvedAddress[]> => [{ address: '93.184.216.34', family: 4 }]);
    const err = await fetcher(resolve)
      .fetch(url())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err).toMatchObject({ address, retryable: false, code: 'fetch_blocked_address' });
    expect((err as BlockedAddressError).url).toContain('http://');
    // An IP literal is checked as such: no DNS involved.
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses [::1] (the IPv6 loopback guard)', async () => {
    const port = guard6?.port ?? guard4.port;
    const err = await fetcher()
      .fetch(`http://[::1]:${port}/`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err).toMatchObject({ address: '::1', reason: 'loopback' });
  });

  it.each([
    ['10.0.0.5', [{ address: '10.0.0.5', family: 4 }]],
    ['127.0.0.1', [{ address: '127.0.0.1', family: 4 }]],
    ['::1', [{ address: '::1', family: 6 }]],
    ['::ffff:127.0.0.1', [{ address: '::ffff:127.0.0.1', family: 6 }]],
    // EVERY address is checked: one private answer among public ones is enough to refuse.
    [
      '127.0.0.1 after a public one',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    ],
  ] as [string, ResolvedAddress[]][])('refuses a name that resolves to %s', async (_name, answers) => {
    const resolve = jest.fn(async () => answers);
    const err = await fetcher(resolve)
      .fetch(`http://internal.example:${guard4.port}/`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err).toMatchObject({ host: 'internal.example', address: answers[answers.length - 1]!.address });
    expect(resolve).toHaveBeenCalledWith('internal.example');
  });

  it('refuses a redirect to a private address (the public first hop is served, the second never connects)', async () => {
    const allowlist = [`127.0.0.1:${publicServer.port}`];
    const target = encodeURIComponent(`http://127.0.0.1:${guard4.port}/`);
    const served = publicServer.requests.length;
    const err = await fetcher(undefined, allowlist)
      .fetch(`${publicServer.origin}/redirect?to=${target}`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect(err).toMatchObject({ address: '127.0.0.1', url: `http://127.0.0.1:${guard4.port}/` });
    expect(publicServer.requests.length).toBe(served + 1);
  });

  it('refuses a redirect to a name that resolves privately, and to the metadata address', async () => {
    const allowlist = [`127.0.0.1:${publicServer.port}`];
    const resolve = jest.fn(async (): Promise<ResolvedAddress[]> => [{ address: '10.1.2.3', family: 4 }]);
    const viaName = encodeURIComponent(`http://intranet.example:${guard4.port}/admin`);
    await expect(fetcher(resolve, allowlist).fetch(`${publicServer.origin}/redirect?to=${viaName}`)).rejects.toMatchObject({
      name: 'BlockedAddressError',
      host: 'intranet.example',
      address: '10.1.2.3',
    });
    const metadata = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    await expect(fetcher(undefined, allowlist).fetch(`${publicServer.origin}/redirect?to=${metadata}`)).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
  });

  it('rebinding: one resolution per hop, and the connection goes to the checked address only', async () => {
    // A second guard on the public server's port but another loopback address: if the connection ever
    // used a second DNS answer, it would land here.
    const rebindGuard = await startGuard('127.0.0.2', publicServer.port);
    if (rebindGuard === null) throw new Error('cannot listen on 127.0.0.2 (needed by this test)');
    try {
      // First answer: the allowlisted address; every later answer: 127.0.0.2 (not allowlisted).
      const rebinding = () => {
        let calls = 0;
        return jest.fn(async (): Promise<ResolvedAddress[]> => {
          calls++;
          return calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.2', family: 4 }];
        });
      };
      const allowlist = [`127.0.0.1:${publicServer.port}`];
      const resolve = rebinding();
      const served = publicServer.requests.length;
      const page = await fetcher(resolve, allowlist).fetch(`http://rebind.test:${publicServer.port}/page`);
      expect(page.status).toBe(200);
      expect(new TextDecoder().decode(page.bytes)).toBe('<p>public page</p>');
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(publicServer.requests.length).toBe(served + 1);
      // Pinned to the checked address, while the Host header is still the name.
      expect(publicServer.requests.at(-1)).toMatchObject({ host: `rebind.test:${publicServer.port}`, remoteAddress: '127.0.0.1' });
      expect(rebindGuard.connections()).toBe(0);

      // A redirect back to the same name is a new hop: resolved again (now 127.0.0.2) and refused before
      // connecting; the first hop was served from the first answer.
      const again = rebinding();
      const next = encodeURIComponent(`http://rebind.test:${publicServer.port}/again`);
      const err = await fetcher(again, allowlist)
        .fetch(`http://rebind.test:${publicServer.port}/redirect?to=${next}`)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BlockedAddressError);
      expect(err).toMatchObject({ address: '127.0.0.2', url: `http://rebind.test:${publicServer.port}/again` });
      expect(again).toHaveBeenCalledTimes(2);
      expect(publicServer.requests.length).toBe(served + 2);
      expect(rebindGuard.connections()).toBe(0);
    } finally {
      await rebindGuard.close();
    }
  });

  it.each([
    ['file:///etc/passwd', 'file:'],
    ['gopher://127.0.0.1:PORT/', 'gopher:'],
    ['data:text/html,hi', 'data:'],
    ['ftp://127.0.0.1:PORT/', 'ftp:'],
    ['javascript:alert(1)', 'javascript:'],
  ])('refuses the scheme of %s', async (url, scheme) => {
    const resolve = jest.fn(async (): Promise<ResolvedAddress[]> => []);
    const err = await fetcher(resolve)
      .fetch(url.replace('PORT', String(guard4.port)))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedSchemeError);
    expect(err).toMatchObject({ scheme, retryable: false });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses a redirect to file:', async () => {
    const target = encodeURIComponent('file:///etc/passwd');
    const err = await fetcher(undefined, [`127.0.0.1:${publicServer.port}`])
      .fetch(`${publicServer.origin}/redirect?to=${target}`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedSchemeError);
  });

  it('refuses ports outside the policy before any DNS lookup', async () => {
    const resolve = jest.fn(async (): Promise<ResolvedAddress[]> => [{ address: '93.184.216.34', family: 4 }]);
    const strict = new SafeFetcher({}, { resolve });
    for (const url of ['http://example.com:22/', 'http://example.com:6379/', `http://example.com:${guard4.port}/`]) {
      await expect(strict.fetch(url)).rejects.toBeInstanceOf(BlockedPortError);
    }
    expect(resolve).not.toHaveBeenCalled();
  });

  it('the test allowlist opens exactly the listed address and port', async () => {
    const resolve = jest.fn(async (): Promise<ResolvedAddress[]> => [{ address: '127.0.0.1', family: 4 }]);
    const open = fetcher(resolve, [`127.0.0.1:${publicServer.port}`]);
    await expect(open.fetch(`http://127.0.0.1:${publicServer.port}/`)).resolves.toMatchObject({ status: 200 });
    // Same address, another (policy-allowed) port: still refused.
    await expect(open.fetch(`http://127.0.0.1:${guard4.port}/`)).rejects.toBeInstanceOf(BlockedAddressError);
    // The listed port on another loopback address: refused too.
    await expect(open.fetch(`http://127.0.0.2:${publicServer.port}/`)).rejects.toBeInstanceOf(BlockedAddressError);
  });
});
