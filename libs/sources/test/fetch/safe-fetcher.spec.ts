import { gzipSync } from 'node:zlib';
import { ConfigError } from '@dossier/errors';
import {
  BinaryContentError,
  FetchHttpError,
  FetchNetworkError,
  FetchTimeoutError,
  HostNotFoundError,
  InvalidFetchUrlError,
  SafeFetcher,
  TooManyRedirectsError,
  UnsupportedContentEncodingError,
  UnsupportedContentTypeError,
  type ResolvedAddress,
} from '../../src';
import { startServer, streamBytes, type TestServer } from './servers';

const CAP = 256 * 1024;

describe('SafeFetcher (local servers through the test allowlist)', () => {
  let server: TestServer;
  let fetcher: SafeFetcher;

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const path = req.url ?? '/';
      const hop = /^\/loop\/(\d+)$/.exec(path);
      if (hop) {
        res.writeHead(302, { location: `/loop/${Number(hop[1]) + 1}` }).end();
        return;
      }
      switch (path) {
        case '/huge':
          res.writeHead(200, { 'content-type': 'text/html' });
          streamBytes(res, 10 * 1024 * 1024);
          return;
        case '/exact':
          res.writeHead(200, { 'content-type': 'text/plain' });
          streamBytes(res, CAP);
          return;
        case '/gzip':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('hello, compressed world'));
          return;
        case '/gzip-bomb':
          res
            .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
            .end(gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x62)));
          return;
        case '/corrupt-gzip':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(Buffer.from('definitely not gzip data'));
          return;
        case '/corrupt-br':
          res
            .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' })
            .end(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01]));
          return;
        case '/compress':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'compress' }).end('xx');
          return;
        case '/binary-as-html':
          res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.from([0x3c, 0x68, 0x00, 0x01, 0x02, 0xff, 0x00, 0x41]));
          return;
        case '/octet':
          res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('plain words');
          return;
        case '/no-type':
          res.writeHead(200, { 'content-type': '' }).end('<p>hi</p>');
          return;
        case '/utf16':
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-16le' }).end(Buffer.from('\ufeffhi there', 'utf16le'));
          return;
        case '/start':
          res.writeHead(301, { location: '../final?x=1#frag' }).end();
          return;
        case '/final?x=1':
          res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end('<p>final</p>');
          return;
        case '/busy':
          res.writeHead(429, { 'retry-after': '7', 'content-type': 'text/plain' }).end('slow down');
          return;
        case '/down':
          res.writeHead(503, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }).end();
          return;
        case '/error':
          res.writeHead(500).end();
          return;
        case '/missing':
          res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
          return;
        case '/hang':
          return; // never answers
        case '/slow-body':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('first bytes, then nothing');
          return;
        default:
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>ok</p>');
      }
    });
    fetcher = new SafeFetcher({ maxBytes: CAP, timeoutMs: 5000, testAllowlist: [`127.0.0.1:${server.port}`] });
  });
  afterAll(async () => {
    await server?.close();
  });

  const url = (path: string) => `${server.origin}${path}`;
  const failure = (path: string, f: SafeFetcher = fetcher) => f.fetch(url(path)).catch((e: unknown) => e);

  it('fetches a page: status, media type, charset, bytes, our User-Agent', async () => {
    const page = await fetcher.fetch(url('/'));
    expect(page).toMatchObject({
      requestedUrl: url('/'),
      url: url('/'),
      status: 200,
      contentType: 'text/html',
      charset: 'utf-8',
      truncated: false,
    });
    expect(Buffer.from(page.bytes).toString()).toBe('<p>ok</p>');
    expect(page.fetchedAt).toBeInstanceOf(Date);
    expect(server.requests.at(-1)?.userAgent).toBe('DossierBot/0.1 (+https://github.com/dossier)');
  });

  it('truncates a huge page at the cap (10 MB sent, cap 256 KB)', async () => {
    const page = await fetcher.fetch(url('/huge'));
    expect(page.truncated).toBe(true);
    expect(page.bytes.length).toBe(CAP);
    expect(page.bytes.every((b) => b === 0x61)).toBe(true);
  });

  it('a body of exactly the cap is complete, not truncated', async () => {
    const page = await fetcher.fetch(url('/exact'));
    expect(page).toMatchObject({ truncated: false });
    expect(page.bytes.length).toBe(CAP);
  });

  it('decompresses gzip, and caps the decompressed size (a gzip bomb stops at the cap)', async () => {
    expect(Buffer.from((await fetcher.fetch(url('/gzip'))).bytes).toString()).toBe('hello, compressed world');
    const bomb = await fetcher.fetch(url('/gzip-bomb'));
    expect(bomb).toMatchObject({ truncated: true });
    expect(bomb.bytes.length).toBe(CAP);
    expect(await failure('/compress')).toBeInstanceOf(UnsupportedContentEncodingError);
    expect(await failure('/corrupt-gzip')).toMatchObject({ name: 'ContentDecodingError', contentEncoding: 'gzip', retryable: false });
    expect(await failure('/corrupt-br')).toMatchObject({ name: 'ContentDecodingError', contentEncoding: 'br' });
  });

  it('refuses a binary body declared as text/html', async () => {
    const err = await failure('/binary-as-html');
    expect(err).toBeInstanceOf(BinaryContentError);
    expect(err).toMatchObject({ contentType: 'text/html', retryable: false, url: url('/binary-as-html') });
  });

  it('refuses media types outside the allowlist, and a missing one', async () => {
    expect(await failure('/octet')).toMatchObject({ name: 'UnsupportedContentTypeError', contentType: 'application/octet-stream' });
    expect(await failure('/no-type')).toBeInstanceOf(UnsupportedContentTypeError);
  });

  it('UTF-16 text (with NUL bytes by nature) is not mistaken for binary', async () => {
    const page = await fetcher.fetch(url('/utf16'));
    expect(page.charset).toBe('utf-16le');
    expect(new TextDecoder('utf-16le').decode(page.bytes)).toBe('hi there');
  });

  it('follows redirects (relative Location, fragment dropped) and reports the final URL', async () => {
    const page = await fetcher.fetch(url('/start'));
    expect(page).toMatchObject({ requestedUrl: url('/start'), url: url('/final?x=1'), status: 200 });
  });

  it('stops after maxRedirects', async () => {
    const strict = new SafeFetcher({ maxRedirects: 3, testAllowlist: [`127.0.0.1:${server.port}`] });
    const before = server.requests.length;
    const err = await failure('/loop/0', strict);
    expect(err).toBeInstanceOf(TooManyRedirectsError);
    expect(err).toMatchObject({ maxRedirects: 3, url: url('/loop/0') });
    expect(server.requests.length - before).toBe(4); // the first request and 3 redirects
  });

  it('429 and 5xx are retryable FetchHttpErrors with Retry-After; other 4xx are not', async () => {
    const busy = await failure('/busy');
    expect(busy).toBeInstanceOf(FetchHttpError);
    expect(busy).toMatchObject({ status: 429, retryable: true, retryAfterMs: 7000 });
    const down = (await failure('/down')) as FetchHttpError;
    expect(down).toMatchObject({ status: 503, retryable: true });
    // An HTTP date a minute ahead: what is left of that minute when it is read (only the upper bound is the clock's to keep).
    expect(down.retryAfterMs).toBeGreaterThan(0);
    expect(down.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await failure('/error')).toMatchObject({ status: 500, retryable: true, retryAfterMs: null });
    expect(await failure('/missing')).toMatchObject({ name: 'FetchHttpError', status: 404, retryable: false, url: url('/missing') });
  });

  it('times out on a server that never answers (retryable), within the deadline', async () => {
    const quick = new SafeFetcher({ timeoutMs: 300, testAllowlist: [`127.0.0.1:${server.port}`] });
    // Without the deadline this would never return (the server never answers): no clock needs asserting.
    const err = await failure('/hang', quick);
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect(err).toMatchObject({ retryable: true, timeoutMs: 300 });
    expect(await failure('/slow-body', quick)).toBeInstanceOf(FetchTimeoutError);
  });

  it('the deadline also covers a DNS lookup that never returns', async () => {
    const quick = new SafeFetcher({ timeoutMs: 200 }, { resolve: () => new Promise<ResolvedAddress[]>(() => undefined) });
    await expect(quick.fetch('http://stuck.example/')).rejects.toMatchObject({ name: 'FetchTimeoutError', phase: 'total' });
  });

  it('connection refused is a retryable network error', async () => {
    const closed = await startServer(() => undefined);
    const port = closed.port;
    await closed.close();
    const f = new SafeFetcher({ testAllowlist: [`127.0.0.1:${port}`] });
    const err = await f.fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchNetworkError);
    expect(err).toMatchObject({ retryable: true });
  });

  it('DNS failures are typed: not found is final, a server failure retryable', async () => {
    const dnsError = (code: string) => Object.assign(new Error(`getaddrinfo ${code} x`), { code });
    const notFound = new SafeFetcher({}, { resolve: () => Promise.reject(dnsError('ENOTFOUND')) });
    await expect(notFound.fetch('http://nowhere.example/')).rejects.toBeInstanceOf(HostNotFoundError);
    const empty = new SafeFetcher({}, { resolve: async () => [] });
    await expect(empty.fetch('http://nowhere.example/')).rejects.toBeInstanceOf(HostNotFoundError);
    const flaky = new SafeFetcher({}, { resolve: () => Promise.reject(dnsError('EAI_AGAIN')) });
    await expect(flaky.fetch('http://flaky.example/')).rejects.toMatchObject({ name: 'FetchNetworkError', retryable: true });
  });

  it('refuses URLs that are not URLs or carry credentials', async () => {
    await expect(fetcher.fetch('not a url')).rejects.toBeInstanceOf(InvalidFetchUrlError);
    await expect(fetcher.fetch(`http://user:secret@127.0.0.1:${server.port}/`)).rejects.toBeInstanceOf(InvalidFetchUrlError);
  });

  it('refuses to build a fetcher with a test allowlist outside tests', () => {
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(() => new SafeFetcher({ testAllowlist: ['127.0.0.1:8080'] })).toThrow(ConfigError);
      expect(() => new SafeFetcher({})).not.toThrow();
    } finally {
      process.env.NODE_ENV = saved;
    }
  });
});
