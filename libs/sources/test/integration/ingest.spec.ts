import { createHash } from 'node:crypto';
import { access, chmod, constants, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { sql } from '@dossier/testing';
import { extractBytes, ingestPaths, SourcePathNotFoundError, type IngestProgress, type IngestReport } from '../../src';
import { newTenant, openDatabase, type TestClient } from '../fixtures/database';
import { tempFolder, writeTree } from '../fixtures/files';
import { articlePage } from '../fixtures/html-pages';
import { encryptedPdf, minimalPdf } from '../fixtures/minimal-pdf';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function expectBalanced(report: IngestReport): void {
  const { scanned, ingested, updated, unchanged, duplicates, skipped, failed } = report;
  expect(ingested + updated + unchanged + duplicates + skipped + failed.length).toBe(scanned);
}

describe('ingestPaths (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let prisma: TestClient;
  let folder: Awaited<ReturnType<typeof tempFolder>>;

  beforeAll(async () => {
    database = await openDatabase();
    prisma = database.prisma;
    folder = await tempFolder('ingest');
  });
  afterAll(async () => {
    await folder?.cleanup();
    await database?.close();
  });

  async function documents(collectionId: string) {
    return sql<{
      id: string;
      path: string;
      title: string;
      media_type: string;
      content_hash: string;
      text: string;
      byte_size: number;
      xmin: string;
      has_vector: boolean;
    }>(
      database.db.url,
      `SELECT id, path, title, media_type, content_hash, text, byte_size, xmin::text AS xmin, search_vector IS NOT NULL AS has_vector
       FROM documents WHERE collection_id = $1 ORDER BY path`,
      [collectionId],
    );
  }

  describe('a folder of every format', () => {
    const tenantId = newTenant();
    let root: string;
    let first: IngestReport;
    const progress: IngestProgress[] = [];

    beforeAll(async () => {
      root = path.join(folder.dir, 'docs');
      await writeTree(root, {
        'a.md': '# Alpha notes\r\n\r\nThe alpha reservoir holds water.\r\n',
        'sub/b.txt': 'Bravo levels\nThe bravo canal leaks.',
        'sub/deeper/c.html': articlePage('Charlie page', [
          'Charlie turbines spin in the tidal stream and produce electricity for the town every single day.',
          'The second paragraph explains maintenance of the charlie turbines during the winter storms.',
        ]),
        'd.pdf': minimalPdf([['Delta report page one'], ['Delta page two']], { title: 'Delta report' }),
        'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
        '.hidden.md': '# hidden',
        '.git/config.md': '# git internals',
        'node_modules/pkg/readme.md': '# a dependency',
      });
      first = await ingestPaths(prisma, { tenantId, collection: 'docs', paths: [root], onProgress: (p) => progress.push(p) });
    });

    it('stores one document per supported file, by path relative to the folder', async () => {
      expect(first).toMatchObject({
        scanned: 5,
        ingested: 4,
        updated: 0,
        unchanged: 0,
        duplicates: 0,
        skipped: 1,
        failed: [],
        duplicateOf: [],
      });
      expectBalanced(first);
      const rows = await documents(first.collectionId);
      expect(rows.map((r) => [r.path, r.title, r.media_type])).toEqual([
        ['a.md', 'Alpha notes', 'text/markdown'],
        ['d.pdf', 'Delta report', 'application/pdf'],
        ['sub/b.txt', 'Bravo levels', 'text/plain'],
        ['sub/deeper/c.html', 'Charlie page', 'text/html'],
      ]);
      const collection = await prisma.collection.findUniqueOrThrow({ where: { id: first.collectionId } });
      expect(collection).toMatchObject({ tenantId, name: 'docs' });
    });

    it('stores exactly the extracted text, hashed with sha256, with the file size and a search vector', async () => {
      const rows = await documents(first.collectionId);
      for (const row of rows) {
        const bytes = await readFile(path.join(root, row.path));
        const extracted = await extractBytes(bytes, row.path);
        expect(row.text).toBe(extracted.text);
        expect(row.content_hash).toBe(sha256(extracted.text));
        expect(row.byte_size).toBe(bytes.length);
        expect(row.has_vector).toBe(true);
      }
      expect(rows[0]!.text).toBe('# Alpha notes\n\nThe alpha reservoir holds water.');
    });

    it('reports progress once per file, in order, up to the total', () => {
      expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4]);
      expect(progress.every((p) => p.total === 4)).toBe(true);
      expect(progress.map((p) => path.relative(root, p.path))).toEqual([
        'a.md',
        'd.pdf',
        path.join('sub', 'b.txt'),
        path.join('sub', 'deeper', 'c.html'),
      ]);
    });

    it('a second run writes nothing: all unchanged, same rows, same row versions', async () => {
      const before = await documents(first.collectionId);
      const second = await ingestPaths(prisma, { tenantId, collection: 'docs', paths: [root] });
      expect(second).toMatchObject({
        collectionId: first.collectionId,
        scanned: 5,
        ingested: 0,
        updated: 0,
        unchanged: 4,
        duplicates: 0,
        skipped: 1,
        failed: [],
      });
      // xmin changes whenever Postgres writes a row version: equal xmin means not even a no-op UPDATE ran.
      expect(await documents(first.collectionId)).toEqual(before);
    });

    it('a changed file updates its row in place', async () => {
      const [before] = (await documents(first.collectionId)).filter((r) => r.path === 'sub/b.txt');
      await writeFile(path.join(root, 'sub/b.txt'), 'Bravo levels\nThe bravo canal was repaired in 2025.');
      const report = await ingestPaths(prisma, { tenantId, collection: 'docs', paths: [root] });
      expect(report).toMatchObject({ ingested: 0, updated: 1, unchanged: 3 });
      const [after] = (await documents(first.collectionId)).filter((r) => r.path === 'sub/b.txt');
      expect(after!.id).toBe(before!.id);
      expect(after!.text).toBe('Bravo levels\nThe bravo canal was repaired in 2025.');
      expect(after!.content_hash).toBe(sha256(after!.text));
      expect(after!.xmin).not.toBe(before!.xmin);
    });

    it('a copy of a stored file is reported as its duplicate and not stored twice', async () => {
      await writeFile(path.join(root, 'sub/copy-of-a.md'), await readFile(path.join(root, 'a.md')));
      const report = await ingestPaths(prisma, { tenantId, collection: 'docs', paths: [root] });
      expect(report).toMatchObject({
        ingested: 0,
        updated: 0,
        unchanged: 4,
        duplicates: 1,
        duplicateOf: [{ path: 'sub/copy-of-a.md', duplicateOf: 'a.md' }],
      });
      expectBalanced(report);
      expect((await documents(first.collectionId)).map((r) => r.path)).not.toContain('sub/copy-of-a.md');
    });

    it('two files that swap contents are both stored with their new text', async () => {
      const x = path.join(folder.dir, 'swap', 'x.txt');
      const y = path.join(folder.dir, 'swap', 'y.txt');
      await writeTree(path.join(folder.dir, 'swap'), { 'x.txt': 'Xray content about glaciers', 'y.txt': 'Yankee content about rivers' });
      const a = await ingestPaths(prisma, { tenantId, collection: 'swap', paths: [x, y] });
      expect(a).toMatchObject({ ingested: 2 });
      await writeTree(path.join(folder.dir, 'swap'), { 'x.txt': 'Yankee content about rivers', 'y.txt': 'Xray content about glaciers' });
      const b = await ingestPaths(prisma, { tenantId, collection: 'swap', paths: [x, y] });
      expect(b.duplicates).toBe(0);
      expect(b.updated + b.ingested).toBe(2);
      const rows = await documents(a.collectionId);
      expect(rows.map((r) => [r.path, r.text])).toEqual([
        ['x.txt', 'Yankee content about rivers'],
        ['y.txt', 'Xray content about glaciers'],
      ]);
    });

    it('another tenant gets its own collection of the same name', async () => {
      const other = await ingestPaths(prisma, { tenantId: newTenant(), collection: 'docs', paths: [path.join(root, 'a.md')] });
      expect(other.collectionId).not.toBe(first.collectionId);
      expect(other.ingested).toBe(1);
      // A named file is stored under its own name (the root defaults to its folder).
      expect((await documents(other.collectionId)).map((r) => r.path)).toEqual(['a.md']);
    });
  });

  describe('bad input', () => {
    const tenantId = newTenant();
    let bad: string;
    let report: IngestReport;
    let lockedIsReadable: boolean;

    beforeAll(async () => {
      bad = path.join(folder.dir, 'bad');
      await writeTree(bad, {
        'binary.txt': Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00, 0xff, 0xfe]),
        'empty.md': '',
        'corrupt.pdf': '%PDF-1.7\n1 0 obj\n<< /Type /Catalog',
        'encrypted.pdf': encryptedPdf(),
        'huge.txt': 'x'.repeat(5000),
        'locked.md': '# Locked\n\nsecret',
        'good.md': '# Good\n\nThis one is fine.',
        'notes.docx': 'not really a docx',
      });
      await chmod(path.join(bad, 'locked.md'), 0o000);
      // Root reads a mode-000 file anyway: assert whichever behaviour this machine really has.
      lockedIsReadable = await access(path.join(bad, 'locked.md'), constants.R_OK).then(
        () => true,
        () => false,
      );
      report = await ingestPaths(prisma, {
        tenantId,
        collection: 'bad',
        paths: [bad, path.join(bad, 'notes.docx'), path.join(folder.dir, 'does-not-exist')],
        maxFileBytes: 4096,
      });
    });
    afterAll(async () => {
      await chmod(path.join(bad, 'locked.md'), 0o644);
    });

    it('goes on past every bad file and names the reason for each', () => {
      const byName = Object.fromEntries(report.failed.map((f) => [path.basename(f.path), f]));
      expect(byName['binary.txt']).toMatchObject({ code: 'binary', reason: expect.stringMatching(/binary content/) });
      expect(byName['empty.md']).toMatchObject({ code: 'empty', reason: expect.stringMatching(/empty/) });
      expect(byName['corrupt.pdf']).toMatchObject({ code: 'corrupt_pdf', reason: expect.stringMatching(/corrupt PDF/) });
      expect(byName['encrypted.pdf']).toMatchObject({ code: 'encrypted_pdf', reason: expect.stringMatching(/password/) });
      expect(byName['huge.txt']).toMatchObject({ code: 'too_large', reason: expect.stringMatching(/too large: 0\.0 MB is over/) });
      expect(byName['notes.docx']).toMatchObject({ code: 'unsupported', reason: expect.stringMatching(/unsupported file type/) });
      expect(byName['does-not-exist']).toMatchObject({ code: 'not_found', path: path.join(folder.dir, 'does-not-exist') });
      if (lockedIsReadable) {
        expect(byName['locked.md']).toBeUndefined();
      } else {
        expect(byName['locked.md']).toMatchObject({ code: 'unreadable', reason: expect.stringMatching(/permission denied/) });
      }
    });

    it('stores the good files and counts every path once', async () => {
      const stored = (await documents(report.collectionId)).map((r) => r.path);
      expect(stored).toEqual(lockedIsReadable ? ['good.md', 'locked.md'] : ['good.md']);
      expect(report.ingested).toBe(stored.length);
      // In the folder, notes.docx is skipped silently; named explicitly it is a failure.
      expect(report.skipped).toBe(1);
      expect(report.failed).toHaveLength(lockedIsReadable ? 7 : 8);
      expectBalanced(report);
    });

    it('throws SourcePathNotFoundError naming the paths when none exists, and creates nothing', async () => {
      const missing = [path.join(folder.dir, 'nope-1'), path.join(folder.dir, 'nope-2')];
      const attempt = ingestPaths(prisma, { tenantId, collection: 'never', paths: missing });
      await expect(attempt).rejects.toThrow(SourcePathNotFoundError);
      await expect(ingestPaths(prisma, { tenantId, collection: 'never', paths: missing })).rejects.toMatchObject({
        code: 'source_path_not_found',
        paths: missing,
        message: expect.stringContaining('nope-1'),
      });
      expect(await prisma.collection.count({ where: { tenantId, name: 'never' } })).toBe(0);
    });

    it('validates its options', async () => {
      await expect(ingestPaths(prisma, { tenantId: 'not-a-uuid', collection: 'x', paths: [bad] })).rejects.toThrow(/uuid/i);
      await expect(ingestPaths(prisma, { tenantId, collection: 'a/b', paths: [bad] })).rejects.toThrow(/collection name/);
      await expect(ingestPaths(prisma, { tenantId, collection: 'x', paths: [] })).rejects.toThrow();
    });
  });

  it('a document Postgres refuses fails alone: the rest of its batch is stored', async () => {
    // Long unique words of 3-byte characters: the title+text tsvector passes Postgres' 1 MB limit.
    let words = '';
    for (let n = 0; words.length < 400_000; n++) {
      let word = '';
      for (let k = 0; k < 60; k++) word += String.fromCharCode(0x10d0 + ((n >> ((k % 12) * 2)) & 31));
      words += `${word} `;
    }
    const root = path.join(folder.dir, 'refused');
    await writeTree(root, { 'a-before.md': '# Before\n\nfine', 'b-huge-vector.txt': words, 'c-after.md': '# After\n\nfine too' });
    const report = await ingestPaths(prisma, { tenantId: newTenant(), collection: 'refused', paths: [root] });
    expect(report.failed).toEqual([
      {
        path: path.join(root, 'b-huge-vector.txt'),
        code: 'not_stored',
        reason: expect.stringMatching(/not stored: .*too long for tsvector/),
      },
    ]);
    expect(report.ingested).toBe(2);
    expect((await documents(report.collectionId)).map((r) => r.path)).toEqual(['a-before.md', 'c-after.md']);
  });

  describe('folder walking', () => {
    it('follows symbolic links without looping and ingests each file once', async () => {
      const tenantId = newTenant();
      const root = path.join(folder.dir, 'links');
      await writeTree(root, { 'one.md': '# One\n\nfirst', 'inner/two.txt': 'second file' });
      await symlink(root, path.join(root, 'inner', 'loop-to-root'));
      await symlink(path.join(root, 'missing-target.md'), path.join(root, 'dangling.md'));
      await mkdir(path.join(root, 'empty-dir'));
      const report = await ingestPaths(prisma, { tenantId, collection: 'links', paths: [root] });
      expect(report).toMatchObject({ ingested: 2, duplicates: 0 });
      expect(report.failed).toEqual([
        { path: path.join(root, 'dangling.md'), code: 'not_found', reason: expect.stringMatching(/broken symbolic link/) },
      ]);
      expect((await documents(report.collectionId)).map((r) => r.path)).toEqual(['inner/two.txt', 'one.md']);
    });

    it('two ingestions of one folder at the same time end with one row per file', async () => {
      const tenantId = newTenant();
      const root = path.join(folder.dir, 'race');
      await writeTree(
        root,
        Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.md`, `# File ${i}\n\nbody ${i}`])),
      );
      const [a, b] = await Promise.all([
        ingestPaths(prisma, { tenantId, collection: 'race', paths: [root], batchSize: 7 }),
        ingestPaths(prisma, { tenantId, collection: 'race', paths: [root], batchSize: 5 }),
      ]);
      expect(a.failed).toEqual([]);
      expect(b.failed).toEqual([]);
      expect(a.ingested + b.ingested).toBe(30);
      expect(a.ingested + a.unchanged).toBe(30);
      expect((await documents(a.collectionId)).length).toBe(30);
    });
  });
});
