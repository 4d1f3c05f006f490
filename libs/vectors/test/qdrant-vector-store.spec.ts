import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startQdrantDouble, type QdrantDouble } from '@dossier/testing';
import { NestFactory } from '@nestjs/core';
import { LanceVectorStore, pointId, QdrantVectorStore, VECTOR_STORE, VectorsModule } from '../src';
import { describeVectorStoreContract } from './vector-store.contract';

/**
 * The one VectorStore contract, run against the Qdrant adapter twice: over the protocol double in
 * libs/testing (always; it speaks Qdrant's REST shapes, it is not Qdrant), and over a live Qdrant when
 * QDRANT_URL is set. Without one (no Docker engine here) that block is not declared at all, rather than reported
 * as 22 skipped tests: `QDRANT_URL=http://127.0.0.1:6333 npx jest libs/vectors` runs it.
 */
let double: QdrantDouble;
beforeAll(async () => {
  double = await startQdrantDouble();
});
afterAll(async () => {
  await double?.close();
});

describeVectorStoreContract('QdrantVectorStore over the Qdrant protocol double', async () => new QdrantVectorStore({ url: double.url }));

const live = process.env['QDRANT_URL'];
if (live) {
  describe('live Qdrant (QDRANT_URL)', () => {
    describeVectorStoreContract(
      `QdrantVectorStore against ${live ?? 'QDRANT_URL'}`,
      async () =>
        new QdrantVectorStore({ url: live!, ...(process.env['QDRANT_API_KEY'] ? { apiKey: process.env['QDRANT_API_KEY'] } : {}) }),
    );
  });
}

describe('QdrantVectorStore specifics (over the double)', () => {
  it('creates a missing collection with cosine distance and payload indexes on tenant, run and kind, once', async () => {
    const store = new QdrantVectorStore({ url: double.url });
    const before = double.requests().length;
    await store.ensureCollection('specifics', 8);
    await store.ensureCollection('specifics', 8);
    const sent = double.requests().slice(before);
    expect(sent.filter((r) => r === 'PUT /collections/specifics')).toHaveLength(1);
    expect(sent.filter((r) => r === 'PUT /collections/specifics/index')).toHaveLength(3);
    const info = (await (await fetch(`${double.url}/collections/specifics`)).json()) as {
      result: { payload_schema: Record<string, { data_type: string }> };
    };
    expect(Object.keys(info.result.payload_schema).sort()).toEqual(['kind', 'runId', 'tenantId']);
    await store.close();
  });

  it("sends searchMany as query batches of searchBatchSize, and their answers come back in the queries' order", async () => {
    const store = new QdrantVectorStore({ url: double.url, searchBatchSize: 2 });
    await store.ensureCollection('search_batches', 2);
    await store.upsert(
      'search_batches',
      Array.from({ length: 6 }, (_, i) => ({ id: pointId(`s${i}`), vector: [1, i], payload: { tenantId: 't', kind: 'evidence' } })),
    );
    const queries = Array.from({ length: 5 }, (_, i) => ({ vector: [1, i], opts: { filter: { tenantId: 't' }, limit: 1 } }));
    const before = double.requests().length;
    const hits = await store.searchMany('search_batches', queries);
    const sent = double.requests().slice(before);
    expect(sent).toEqual(Array.from({ length: 3 }, () => 'POST /collections/search_batches/points/query/batch'));
    expect(hits.map((h) => h[0]!.id)).toEqual([0, 1, 2, 3, 4].map((i) => pointId(`s${i}`)));
    await store.close();
  });

  it('a batch answer that does not match the searches one to one is an outage to retry, not a wrong match', async () => {
    // A server that answers the collection and then one result for any batch: not what Qdrant does.
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET') {
        res.end(JSON.stringify({ status: 'ok', time: 0, result: { config: { params: { vectors: { size: 2, distance: 'Cosine' } } } } }));
      } else {
        req.resume();
        req.on('end', () => res.end(JSON.stringify({ status: 'ok', time: 0, result: [{ points: [] }] })));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const store = new QdrantVectorStore({ url: `http://127.0.0.1:${port}` });
      const query = { vector: [1, 0], opts: { filter: { tenantId: 't' }, limit: 1 } };
      await expect(store.searchMany('odd', [query, query, query])).rejects.toMatchObject({
        name: 'DependencyUnavailableError',
        message: expect.stringMatching(/answered 1 results for 3 searches/),
      });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('splits large upserts into batches', async () => {
    const store = new QdrantVectorStore({ url: double.url, batchSize: 10 });
    await store.ensureCollection('batches', 2);
    const before = double.requests().length;
    await store.upsert(
      'batches',
      Array.from({ length: 35 }, (_, i) => ({ id: pointId(`k${i}`), vector: [1, i], payload: { tenantId: 't', kind: 'evidence' } })),
    );
    expect(
      double
        .requests()
        .slice(before)
        .filter((r) => r === 'PUT /collections/batches/points'),
    ).toHaveLength(4);
    expect(await store.count('batches', { tenantId: 't' })).toBe(35);
    await store.close();
  });

  it('an unreachable Qdrant is a retryable dependency error, not a crash', async () => {
    const store = new QdrantVectorStore({ url: 'http://127.0.0.1:1', timeoutMs: 2000 });
    await expect(store.count('x')).rejects.toMatchObject({ code: 'dependency_unavailable' });
    await store.close();
  });
});

describe('VectorsModule.forRoot', () => {
  it('selects Qdrant when a Qdrant URL is configured, LanceDB in the directory otherwise', async () => {
    const withQdrant = await NestFactory.createApplicationContext(VectorsModule.forRoot({ dir: '/nonexistent', qdrantUrl: double.url }), {
      logger: false,
    });
    expect(withQdrant.get(VECTOR_STORE)).toBeInstanceOf(QdrantVectorStore);
    await withQdrant.close();
    const dir = await mkdtemp(join(tmpdir(), 'dossier-vectors-'));
    const embedded = await NestFactory.createApplicationContext(VectorsModule.forRoot({ dir }), { logger: false });
    const store = embedded.get<LanceVectorStore>(VECTOR_STORE);
    expect(store).toBeInstanceOf(LanceVectorStore);
    expect(store.directory).toBe(dir);
    await embedded.close();
    // The module closed the store on shutdown: it refuses further calls.
    await expect(store.count('anything')).rejects.toMatchObject({ code: 'vector_store_closed' });
    await rm(dir, { recursive: true, force: true });
  });
});
