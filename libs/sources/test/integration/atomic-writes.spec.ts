import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '@dossier/db';
import { allFulfilled, raceAtWrites, separateClients, sql } from '@dossier/testing';
import { DocumentNotFoundError, ensureCollection, SnapshotStore } from '../../src';
import { contentHash } from '../../src/ingest/ingest-paths';
import { newTenant, openDatabase, type TestClient } from '../fixtures/database';

/**
 * Collections and snapshots are created on first use by whoever needs them first: gateway replicas, CLI
 * ingest processes, the retrieve and source-policy steps of runs of one tenant. Raced for real here
 * (docs/decisions/0012): N callers on connections of their own meet at their writes, then write together.
 */
const N = 4;

describe('sources: create-on-first-use under racing callers (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let clients: TestClient[];
  let closeClients: () => Promise<void>;
  const store = new SnapshotStore();

  beforeAll(async () => {
    database = await openDatabase();
    ({ clients, close: closeClients } = await separateClients(N, () => createPrismaClient({ url: database.db.url, poolMax: 2 })));
  });
  afterAll(async () => {
    await closeClients?.();
    await database?.close();
  });

  const count = async (table: string, where: string, params: unknown[]) =>
    Number((await sql<{ n: string }>(database.db.url, `SELECT count(*) AS n FROM ${table} WHERE ${where}`, params))[0]!.n);

  it('ensureCollection: one collection, the same id for every caller, exactly one of them told it created it', async () => {
    const tenantId = newTenant();
    const race = await raceAtWrites(
      database.db.url,
      'collections',
      clients.map((c) => () => ensureCollection(c, tenantId, 'handbook')),
    );
    expect(race.overlapped).toBe(true);
    const got = allFulfilled(race);
    expect(new Set(got.map((c) => c.id)).size).toBe(1);
    expect(got.filter((c) => c.created)).toHaveLength(1);
    expect(await count('collections', 'tenant_id = $1', [tenantId])).toBe(1);
    // And afterwards it is found, not created.
    expect(await ensureCollection(database.prisma, tenantId, 'handbook')).toEqual({ id: got[0]!.id, name: 'handbook', created: false });
  });

  it('SnapshotStore.fromDocument: runs storing the same document at once share one snapshot (no P2002)', async () => {
    const tenantId = newTenant();
    const { id: collectionId } = await ensureCollection(database.prisma, tenantId, 'docs');
    const text = `Shared document text ${randomUUID()}.`;
    const doc = await database.prisma.document.create({
      data: { tenantId, collectionId, path: 'a.md', title: 'A', mediaType: 'text/markdown', contentHash: contentHash(text), text },
    });
    const race = await raceAtWrites(
      database.db.url,
      'source_snapshots',
      clients.map((c) => () => store.fromDocument(c, tenantId, doc.id)),
    );
    expect(race.overlapped).toBe(true);
    const snapshots = allFulfilled(race);
    expect(new Set(snapshots.map((s) => s.id)).size).toBe(1);
    expect(snapshots[0]).toMatchObject({ url: 'corpus://docs/a.md', text, contentHash: contentHash(text) });
    expect(await count('source_snapshots', 'tenant_id = $1', [tenantId])).toBe(1);
  });

  it('SnapshotStore.fromDocuments: runs storing overlapping sets of documents at once, in any order, share one snapshot each (no P2002, no deadlock)', async () => {
    const tenantId = newTenant();
    const { id: collectionId } = await ensureCollection(database.prisma, tenantId, 'many');
    const docs = [];
    for (const name of ['a', 'b', 'c', 'd']) {
      const text = `Document ${name} ${randomUUID()}.`;
      docs.push(
        await database.prisma.document.create({
          data: {
            tenantId,
            collectionId,
            path: `${name}.md`,
            title: name,
            mediaType: 'text/markdown',
            contentHash: contentHash(text),
            text,
          },
        }),
      );
    }
    const ids = docs.map((d) => d.id);
    // Each client asks for the documents in another order (reversed, rotated), as shards' hits come ranked differently.
    const orders = clients.map((_, i) =>
      i % 2 === 0 ? [...ids.slice(i % ids.length), ...ids.slice(0, i % ids.length)] : [...ids].reverse(),
    );
    const race = await raceAtWrites(
      database.db.url,
      'source_snapshots',
      clients.map((c, i) => () => store.fromDocuments(c, tenantId, orders[i]!)),
    );
    expect(race.overlapped).toBe(true);
    const got = allFulfilled(race);
    for (const doc of docs) {
      expect(new Set(got.map((m) => m.get(doc.id)!.id)).size).toBe(1);
      expect(got[0]!.get(doc.id)).toMatchObject({ url: `corpus://many/${doc.path}`, text: doc.text, contentHash: doc.contentHash });
    }
    expect(await count('source_snapshots', 'tenant_id = $1', [tenantId])).toBe(docs.length);
    // A document of another tenant, or none, is not found.
    await expect(store.fromDocuments(database.prisma, newTenant(), [ids[0]!])).rejects.toThrow(DocumentNotFoundError);
  });

  it('SnapshotStore.fromFetched: the same page fetched at once by several runs is one snapshot, confirmed at the latest fetch', async () => {
    const tenantId = newTenant();
    const page = { url: 'https://example.org/report', title: 'Report', text: `Page text ${randomUUID()}`, mediaType: 'text/html' };
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    const race = await raceAtWrites(
      database.db.url,
      'source_snapshots',
      clients.map((c, i) => () => store.fromFetched(c, tenantId, { ...page, fetchedAt: at(i) })),
    );
    expect(race.overlapped).toBe(true);
    expect(new Set(allFulfilled(race).map((s) => s.id)).size).toBe(1);
    const rows = await sql<{ fetched_at: Date }>(database.db.url, 'SELECT fetched_at FROM source_snapshots WHERE tenant_id = $1', [
      tenantId,
    ]);
    expect(rows).toHaveLength(1);
    // fetchedAt only moves forward, whatever order the racing confirmations landed in.
    expect(rows[0]!.fetched_at.getTime()).toBe(at(N - 1).getTime());
  });

  it('SnapshotStore.fromFetched: text already stored under another URL keeps that URL and its fetch time', async () => {
    const tenantId = newTenant();
    const text = `Syndicated text ${randomUUID()}`;
    const first = await store.fromFetched(database.prisma, tenantId, {
      url: 'https://a.example/x',
      title: 'A',
      text,
      mediaType: 'text/html',
      fetchedAt: new Date(Date.UTC(2026, 0, 1)),
    });
    const again = await store.fromFetched(database.prisma, tenantId, {
      url: 'https://b.example/y',
      title: 'B',
      text,
      mediaType: 'text/html',
      fetchedAt: new Date(Date.UTC(2026, 0, 2)),
    });
    expect(again).toEqual(first);
  });
});
