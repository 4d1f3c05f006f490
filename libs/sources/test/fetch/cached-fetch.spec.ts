import { fetchSnapshot, InvalidFetchUrlError, SafeFetcher, SnapshotStore } from '../../src';
import { newTenant, openDatabase, type TestClient } from '../fixtures/database';
import { startServer, type TestServer } from './servers';

const PARAGRAPH =
  'The lake fell by 4.2 metres between June and October 2023, the lowest level in forty years of records kept by the authority.';

describe('fetchSnapshot (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let prisma: TestClient;
  let server: TestServer;
  let fetcher: SafeFetcher;
  const store = new SnapshotStore();
  let version = 1;

  beforeAll(async () => {
    database = await openDatabase();
    prisma = database.prisma;
    server = await startServer((req, res) => {
      if (req.url === '/moved') {
        res.writeHead(301, { location: '/article' }).end();
        return;
      }
      const body =
        req.url === '/changing' ? `<h1>Changing</h1><p>${PARAGRAPH} Version ${version}.</p>` : `<h1>Lake levels</h1><p>${PARAGRAPH}</p>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><html><body>${body}</body></html>`);
    });
    fetcher = new SafeFetcher({ testAllowlist: [`127.0.0.1:${server.port}`] });
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  const hits = (path: string) => server.requests.filter((r) => r.url === path).length;

  it('the second run over the same URL fetches nothing; another tenant gets its own snapshot', async () => {
    const url = `${server.origin}/article`;
    const tenantA = newTenant();
    const tenantB = newTenant();

    const first = await fetchSnapshot(prisma, { tenantId: tenantA, url, fetcher });
    expect(first.fetched).toBe(true);
    expect(first.snapshot).toMatchObject({ tenantId: tenantA, url, title: 'Lake levels', mediaType: 'text/html' });
    expect(first.snapshot.text).toContain(PARAGRAPH);
    expect(first.document?.url).toBe(url);
    expect(hits('/article')).toBe(1);

    const second = await fetchSnapshot(prisma, { tenantId: tenantA, url, fetcher });
    expect(second).toEqual({ snapshot: first.snapshot, fetched: false, document: null });
    // Same URL written differently (fragment): still the same cache entry.
    const third = await fetchSnapshot(prisma, { tenantId: tenantA, url: `${url}#section-2`, fetcher });
    expect(third.fetched).toBe(false);
    expect(hits('/article')).toBe(1);

    // Tenant B: never sees tenant A's snapshot, fetches and stores its own (same text, same hash).
    const other = await fetchSnapshot(prisma, { tenantId: tenantB, url, fetcher });
    expect(other.fetched).toBe(true);
    expect(other.snapshot.id).not.toBe(first.snapshot.id);
    expect(other.snapshot).toMatchObject({ tenantId: tenantB, contentHash: first.snapshot.contentHash, text: first.snapshot.text });
    expect(hits('/article')).toBe(2);
    expect((await fetchSnapshot(prisma, { tenantId: tenantB, url, fetcher })).fetched).toBe(false);
    expect(hits('/article')).toBe(2);

    expect(await prisma.sourceSnapshot.count({ where: { tenantId: tenantA } })).toBe(1);
    expect(await prisma.sourceSnapshot.count({ where: { tenantId: tenantB } })).toBe(1);
    await expect(store.find(prisma, tenantB, first.snapshot.id)).resolves.toBeNull();
  });

  it('a stale snapshot is fetched again; unchanged text keeps its snapshot and its age restarts', async () => {
    const url = `${server.origin}/changing`;
    const tenant = newTenant();
    version = 1;
    const first = await fetchSnapshot(prisma, { tenantId: tenant, url, fetcher });
    const before = hits('/changing');

    const again = await fetchSnapshot(prisma, { tenantId: tenant, url, fetcher, maxAgeMs: 0 });
    expect(again.fetched).toBe(true);
    expect(hits('/changing')).toBe(before + 1);
    expect(again.snapshot.id).toBe(first.snapshot.id);
    expect(again.snapshot.text).toBe(first.snapshot.text);
    expect(again.snapshot.fetchedAt.getTime()).toBeGreaterThan(first.snapshot.fetchedAt.getTime());

    // The page changed: a new snapshot; the old one (which earlier evidence may cite) is kept as it was.
    version = 2;
    const changed = await fetchSnapshot(prisma, { tenantId: tenant, url, fetcher, maxAgeMs: 0 });
    expect(changed.snapshot.id).not.toBe(first.snapshot.id);
    expect(changed.snapshot.text).toContain('Version 2.');
    await expect(store.get(prisma, tenant, first.snapshot.id)).resolves.toMatchObject({ text: first.snapshot.text });
    // The fresh lookup returns the newest snapshot of the URL.
    const latest = await fetchSnapshot(prisma, { tenantId: tenant, url, fetcher });
    expect(latest).toMatchObject({ fetched: false, snapshot: { id: changed.snapshot.id } });
  });

  it('a redirected URL is cached under the URL asked for; the final URL is reported', async () => {
    const tenant = newTenant();
    const url = `${server.origin}/moved`;
    const first = await fetchSnapshot(prisma, { tenantId: tenant, url, fetcher });
    expect(first).toMatchObject({ fetched: true, snapshot: { url }, document: { url: `${server.origin}/article` } });
    const before = hits('/moved');
    expect((await fetchSnapshot(prisma, { tenantId: tenant, url, fetcher })).fetched).toBe(false);
    expect(hits('/moved')).toBe(before);
  });

  it('fetch failures propagate typed, and nothing is stored', async () => {
    const tenant = newTenant();
    await expect(fetchSnapshot(prisma, { tenantId: tenant, url: 'not a url', fetcher })).rejects.toBeInstanceOf(InvalidFetchUrlError);
    await expect(fetchSnapshot(prisma, { tenantId: tenant, url: 'http://127.0.0.1:9/', fetcher })).rejects.toMatchObject({
      name: 'BlockedPortError',
    });
    expect(await prisma.sourceSnapshot.count({ where: { tenantId: tenant } })).toBe(0);
  });
});
