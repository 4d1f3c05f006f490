import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Test } from '@nestjs/testing';
import { DbModule } from '@dossier/db';
import {
  CorpusSearchProvider,
  DocumentNotFoundError,
  ExcerptMismatchError,
  extractBytes,
  ingestPaths,
  SnapshotNotFoundError,
  SnapshotStore,
  SourcesModule,
} from '../../src';
import { newTenant, openDatabase, type TestClient } from '../fixtures/database';
import { tempFolder, writeTree } from '../fixtures/files';
import { articlePage } from '../fixtures/html-pages';
import { minimalPdf } from '../fixtures/minimal-pdf';

describe('SnapshotStore (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let prisma: TestClient;
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  const store = new SnapshotStore();
  const tenantId = newTenant();

  beforeAll(async () => {
    database = await openDatabase();
    prisma = database.prisma;
    folder = await tempFolder('snapshots');
    await writeTree(folder.dir, {
      'levels.html': articlePage('Lake levels', [
        'The lake fell by 4.2 metres between June and October 2023, the lowest level in forty years of records.',
        'The dam operator says the drawdown followed its published schedule; the fishing association disputes that.',
      ]),
      'report.pdf': minimalPdf([['Water balance 2024', 'Evaporation was 310 mm.'], ['Seepage into the canal was small.']], {
        title: 'Water balance',
      }),
      'notes.md': '# Notes\r\n\r\nÜnïcode — and an emoji 🌊 before the key fact: inflow was 12 m³/s.\r\n',
    });
    await ingestPaths(prisma, { tenantId, collection: 'lake', paths: [folder.dir] });
  });
  afterAll(async () => {
    await folder?.cleanup();
    await database?.close();
  });

  const documentAt = (p: string) => prisma.document.findFirstOrThrow({ where: { tenantId, path: p } });

  it('snapshots a document once per content: same row on every call, text and hash as stored', async () => {
    const doc = await documentAt('levels.html');
    const snapshot = await store.fromDocument(prisma, tenantId, doc.id);
    expect(snapshot).toMatchObject({
      tenantId,
      url: 'corpus://lake/levels.html',
      title: 'Lake levels',
      text: doc.text,
      contentHash: doc.contentHash,
      mediaType: 'text/html',
    });
    const again = await store.fromDocument(prisma, tenantId, doc.id);
    expect(again).toEqual(snapshot);
    expect(await prisma.sourceSnapshot.count({ where: { tenantId } })).toBe(1);
    await expect(store.get(prisma, tenantId, snapshot.id)).resolves.toEqual(snapshot);
  });

  it('offsets stay valid: re-extraction, re-ingestion and re-snapshotting give the same text', async () => {
    for (const file of ['levels.html', 'report.pdf', 'notes.md']) {
      const doc = await documentAt(file);
      const snapshot = await store.fromDocument(prisma, tenantId, doc.id);
      const anchor = { 'levels.html': 'fell by 4.2 metres', 'report.pdf': 'Evaporation was 310 mm.', 'notes.md': 'inflow was 12 m³/s' }[
        file
      ]!;
      const start = snapshot.text.indexOf(anchor);
      expect(start).toBeGreaterThan(0);
      const end = start + anchor.length;
      expect(store.slice(snapshot, start, end)).toBe(anchor);

      const reextracted = await extractBytes(await readFile(path.join(folder.dir, file)), file);
      expect(reextracted.text).toBe(snapshot.text);
      expect(() => store.assertExcerpt(reextracted.text, anchor, start, end)).not.toThrow();
    }
    const report = await ingestPaths(prisma, { tenantId, collection: 'lake', paths: [folder.dir] });
    expect(report.unchanged).toBe(3);
    const doc = await documentAt('notes.md');
    const again = await store.fromDocument(prisma, tenantId, doc.id);
    expect(again.text).toBe('# Notes\n\nÜnïcode — and an emoji 🌊 before the key fact: inflow was 12 m³/s.');
    const start = again.text.indexOf('inflow');
    expect(store.slice(again, start, start + 6)).toBe('inflow');
  });

  it('a changed document gets a new snapshot; the old one keeps its text for old evidence', async () => {
    const before = await store.fromDocument(prisma, tenantId, (await documentAt('notes.md')).id);
    const start = before.text.indexOf('12 m³/s');
    await writeFile(path.join(folder.dir, 'notes.md'), '# Notes\n\nRevised: inflow was 14 m³/s after the new gauge.\n');
    expect((await ingestPaths(prisma, { tenantId, collection: 'lake', paths: [folder.dir] })).updated).toBe(1);
    const after = await store.fromDocument(prisma, tenantId, (await documentAt('notes.md')).id);
    expect(after.id).not.toBe(before.id);
    expect(after.text).toContain('14 m³/s');
    const old = await store.get(prisma, tenantId, before.id);
    expect(old.text).toBe(before.text);
    expect(() => store.assertExcerpt(old.text, '12 m³/s', start, start + '12 m³/s'.length)).not.toThrow();
    expect(() => store.assertExcerpt(after.text, '12 m³/s', start, start + '12 m³/s'.length)).toThrow(ExcerptMismatchError);
  });

  it('keeps tenants apart and names what is missing', async () => {
    const doc = await documentAt('report.pdf');
    const snapshot = await store.fromDocument(prisma, tenantId, doc.id);
    const other = newTenant();
    await expect(store.get(prisma, other, snapshot.id)).rejects.toThrow(SnapshotNotFoundError);
    await expect(store.find(prisma, other, snapshot.id)).resolves.toBeNull();
    await expect(store.fromDocument(prisma, other, doc.id)).rejects.toThrow(DocumentNotFoundError);
    await expect(store.get(prisma, tenantId, newTenant())).rejects.toThrow(SnapshotNotFoundError);
  });

  it('works inside a transaction, which rolls back with it', async () => {
    const doc = await documentAt('levels.html');
    const other = newTenant();
    await ingestPaths(prisma, { tenantId: other, collection: 'lake', paths: [path.join(folder.dir, 'levels.html')] });
    const otherDoc = await prisma.document.findFirstOrThrow({ where: { tenantId: other } });
    await expect(
      prisma.$transaction(async (tx) => {
        await store.fromDocument(tx, other, otherDoc.id);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await prisma.sourceSnapshot.count({ where: { tenantId: other } })).toBe(0);
    const made = await prisma.$transaction((tx) => store.fromDocument(tx, other, otherDoc.id));
    expect(made.contentHash).toBe(doc.contentHash);
    expect(made.tenantId).toBe(other);
  });

  it('SourcesModule provides the snapshot store and the corpus provider on the app client', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [DbModule.forRoot({ url: database.db.url, poolMax: 2 }), SourcesModule],
    }).compile();
    try {
      const corpus = moduleRef.get(CorpusSearchProvider);
      expect(corpus.name).toBe('corpus');
      const hits = await corpus.search({ tenantId, query: 'evaporation', limit: 5 });
      expect(hits.map((h) => h.url)).toEqual(['corpus://lake/report.pdf']);
      expect(moduleRef.get(SnapshotStore)).toBeInstanceOf(SnapshotStore);
    } finally {
      await moduleRef.close();
    }
  });
});
