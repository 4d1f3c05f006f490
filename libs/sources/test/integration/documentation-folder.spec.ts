import { gzipSync } from 'node:zlib';
import * as path from 'node:path';
import { ingestPaths, listDocuments, removeDocuments, type IngestReport } from '../../src';
import { newTenant, openDatabase, type TestClient } from '../fixtures/database';
import { tempFolder, writeTree } from '../fixtures/files';

/** A generated manual's page as Node's doc tool writes it: the site's name in <title> and in a header <h1>. */
function sitePage(heading: string, body: string): string {
  return `<!DOCTYPE html><html><head><title>${heading} | Acme v2 Documentation</title></head><body>
<header><h1>Acme v2 documentation</h1><nav><a href="index.html">Index</a> <a href="all.html">View on one page</a></nav></header>
<div id="apicontent"><h2>${heading}<span><a class="mark" href="#x" id="x">#</a></span></h2>
<details class="changelog"><summary>History</summary><table><tr><th>Version</th><th>Changes</th></tr>
<tr><td>v2.0.0</td><td><p>pr-url: https://github.com/acme/acme/pull/9 Added.</p></td></tr></table></details>
${body}</div><footer>Copyright Acme</footer></body></html>`;
}

const FS_MD = `---
layout: api
---
# File system

<!--introduced_in=v0.10.0-->

> Stability: 2 - Stable

<!-- YAML
added: v0.1.8
changes:
  - version: v14.0.0
    pr-url: https://github.com/acme/acme/pull/31553
    description: Exposed as \`require('fs/promises')\`.
-->

The \`node:fs\` module reads files with [\`fs.open()\`][] and streams; see the
[File system flags][] and [the guide](../guide/start.md "Guide") for the
[Nonce-Disrespecting
Adversaries][] case. A child process started with \\[child\\_process.exec()\\]\\[\\] can read them
too, as can **bold** and _emphasised_ readers of snake_case_names.

<table>
  <tr><td><code>O_RDONLY</code></td><td>Flag indicating to open a file for read-only access.</td></tr>
</table>

| Flag | Meaning |
| ---- | ------- |
| \`r\` | Open file for reading. |

\`\`\`mjs
import { open } from 'node:fs/promises';
\`\`\`

Reading a file line by line uses the readline module over a read stream.

[\`fs.open()\`]: #fsopenpath-flags-mode-callback
[File system flags]: #file-system-flags
[Nonce-Disrespecting Adversaries]: https://example.com/nonce
`;

const CHANGELOG = `# Acme 2 ChangeLog

<!--lint disable maximum-line-length-->

<table>
<tr><th>Current</th></tr>
<tr><td><a href="#2.0.1">2.0.1</a><br/><a href="#2.0.0">2.0.0</a></td></tr>
</table>

## 2.0.1

* \\[[\`cfb51fa9ce\`](https://github.com/acme/acme/commit/cfb51fa9ce)] - **fs**: fix reading of empty files (Ada) [#62344](https://github.com/acme/acme/pull/62344)
`;

/** Link syntax, tags, escapes, fences, comments and changelog metadata: none may reach a stored text (evidence). */
const MARKUP = [/\]\[/, /\]\(/, /\\[[\]_*]/, /<\/?(td|tr|th|table|a|code|br|p|span|details)\b/i, /pr-url/, /<!--/, /```/, /^---$/m, /\*\*/];

describe('a documentation folder (real Postgres; decisions 0055, 0056)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let prisma: TestClient;
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  let root: string;

  beforeAll(async () => {
    database = await openDatabase();
    prisma = database.prisma;
    folder = await tempFolder('manual');
    root = path.join(folder.dir, 'acme');
    await writeTree(root, {
      'api/fs.md': FS_MD,
      'api/fs.html': sitePage(
        'File system',
        '<p>The <code>node:fs</code> module reads files with [<code>fs.open()</code>][] and streams.</p>',
      ),
      'api/fs.json.gz': gzipSync(JSON.stringify({ type: 'module', source: 'doc/api/fs.md' })),
      'api/path.html': sitePage(
        'Path',
        '<p>The <code>path</code> module joins paths with [<code>path.join()</code>][] on every platform.</p>',
      ),
      'api/stream.md.gz': gzipSync(
        '# Stream\n\nA stream is an abstract interface for working with streaming data, read line by line or in chunks.\n',
      ),
      'api/intro.md': '# Introduction\n\nThe API reference lists every module of Acme and what each one does.\n',
      'api/all.html': sitePage('About this documentation', '<h2>File system</h2><p>The fs module.</p><h2>Path</h2><p>The path module.</p>'),
      'api/assets/style.css': 'body { color: black }',
      'guide/intro.md': '# Introduction\n\nThis guide walks a newcomer through installing Acme and reading a first file.\n',
      'guide/start.md': '---\ntitle: Getting started\n---\nInstall Acme, then run `acme read notes.txt` to print a file line by line.\n',
      'changelogs/CHANGELOG_V2.md': CHANGELOG,
    });
  });
  afterAll(async () => {
    await folder?.cleanup();
    await database?.close();
  });

  describe('ingested whole', () => {
    const tenantId = newTenant();
    let report: IngestReport;
    let docs: { path: string; title: string; text: string; aliases: string[] }[];

    beforeAll(async () => {
      report = await ingestPaths(prisma, { tenantId, collection: 'acme', paths: [root] });
      docs = await prisma.document.findMany({
        where: { tenantId },
        orderBy: { path: 'asc' },
        select: { path: true, title: true, text: true, aliases: true },
      });
    });

    it('stores one document per page: the markdown of a page in three formats, with the others as its aliases', () => {
      expect(docs.map((d) => d.path)).toEqual([
        'api/fs.md',
        'api/intro.md',
        'api/path.html',
        'api/stream.md.gz',
        'changelogs/CHANGELOG_V2.md',
        'guide/intro.md',
        'guide/start.md',
      ]);
      expect(docs.find((d) => d.path === 'api/fs.md')?.aliases).toEqual(['api/fs.html', 'api/fs.json.gz']);
      expect(report.failed).toEqual([]);
    });

    it("titles each page by its own heading, not the site's, and tells equal headings apart by section path", () => {
      expect(Object.fromEntries(docs.map((d) => [d.path, d.title]))).toEqual({
        'api/fs.md': 'File system',
        'api/intro.md': 'Introduction',
        'api/path.html': 'Path',
        'api/stream.md.gz': 'Stream',
        'changelogs/CHANGELOG_V2.md': 'Acme 2 ChangeLog',
        'guide/intro.md': 'Introduction (guide/intro)',
        'guide/start.md': 'Getting started',
      });
    });

    it('keeps no markup in any stored text (what evidence quotes), and keeps the words the markup wrapped', () => {
      for (const doc of docs) {
        for (const markup of MARKUP) {
          const at = markup.exec(doc.text);
          if (at) throw new Error(`${doc.path} keeps ${String(markup)}: …${doc.text.slice(Math.max(0, at.index - 40), at.index + 40)}…`);
        }
      }
      const fs = docs.find((d) => d.path === 'api/fs.md')!.text;
      expect(fs).toContain(
        'The node:fs module reads files with fs.open() and streams; see the\nFile system flags and the guide for the\nNonce-Disrespecting\nAdversaries case.',
      );
      expect(fs).toContain(
        'A child process started with child_process.exec() can read them\ntoo, as can bold and emphasised readers of snake_case_names.',
      );
      expect(fs).toContain('O_RDONLY');
      expect(fs).toContain('r; Open file for reading.');
      expect(fs).toContain("import { open } from 'node:fs/promises';");
      expect(fs).not.toContain('v14.0.0');
      expect(docs.find((d) => d.path === 'api/path.html')!.text).toContain('joins paths with path.join() on every platform');
      const changelog = docs.find((d) => d.path === 'changelogs/CHANGELOG_V2.md')!.text;
      expect(changelog).toContain('[cfb51fa9ce] - fs: fix reading of empty files (Ada) #62344');
    });

    it('lists every skipped file once, with its reason, and counts it', () => {
      const reasons = Object.fromEntries(report.skippedFiles.map((s) => [path.relative(root, s.path), s.reason]));
      expect(Object.keys(reasons).sort()).toEqual(['api/all.html', 'api/assets/style.css', 'api/fs.html', 'api/fs.json.gz']);
      expect(reasons['api/all.html']).toMatch(/^the whole manual in one page: its \d+ parts in api\/ are ingested instead$/);
      expect(reasons['api/fs.html']).toBe('same page as api/fs.md (ingested; recorded as its alias)');
      expect(reasons['api/assets/style.css']).toBe('unsupported file type (.css)');
      expect(report.skipped).toBe(report.skippedFiles.length);
      expect(report.ingested + report.skipped + report.failed.length).toBe(report.scanned);
    });

    it('makes the collection documentation, whatever format each page came in', async () => {
      expect(report.kind).toBe('documentation');
      expect((await prisma.collection.findFirst({ where: { tenantId } }))?.kind).toBe('documentation');
    });

    it('lists and removes documents by path or glob (aliases match too)', async () => {
      expect((await listDocuments(prisma, tenantId, 'acme'))?.map((d) => d.path)).toHaveLength(7);
      expect(await removeDocuments(prisma, tenantId, 'acme', ['api/fs.html', 'guide/**'])).toEqual([
        'api/fs.md',
        'guide/intro.md',
        'guide/start.md',
      ]);
      expect((await listDocuments(prisma, tenantId, 'acme'))?.map((d) => d.path)).toEqual([
        'api/intro.md',
        'api/path.html',
        'api/stream.md.gz',
        'changelogs/CHANGELOG_V2.md',
      ]);
      expect(await removeDocuments(prisma, tenantId, 'nope', ['x'])).toBeNull();
    });
  });

  it('takes --include and --exclude globs (exclude wins), and an explicit kind', async () => {
    const tenantId = newTenant();
    const report = await ingestPaths(prisma, {
      tenantId,
      collection: 'html-only',
      paths: [root],
      include: ['api/**'],
      exclude: ['*.md', '*.md.gz'],
      kind: 'official',
    });
    const docs = await prisma.document.findMany({
      where: { tenantId },
      orderBy: { path: 'asc' },
      select: { path: true, title: true, aliases: true },
    });
    expect(docs).toEqual([
      { path: 'api/fs.html', title: 'File system', aliases: ['api/fs.json.gz'] },
      { path: 'api/path.html', title: 'Path', aliases: [] },
    ]);
    const reasons = new Map(report.skippedFiles.map((s) => [path.relative(root, s.path), s.reason]));
    expect(reasons.get('api/fs.md')).toBe('excluded by --exclude *.md');
    expect(reasons.get('guide/intro.md')).toBe('excluded by --exclude *.md');
    expect(report.kind).toBe('official');

    const guide = await ingestPaths(prisma, { tenantId, collection: 'guide', paths: [root], include: ['guide/**'] });
    expect(guide.ingested).toBe(2);
    expect(new Map(guide.skippedFiles.map((s) => [path.relative(root, s.path), s.reason])).get('api/path.html')).toBe(
      'not matched by any --include pattern',
    );
  });

  it('removes a twin stored on its own by an earlier ingestion, once the page is ingested whole', async () => {
    const tenantId = newTenant();
    await ingestPaths(prisma, { tenantId, collection: 'acme', paths: [path.join(root, 'api/fs.html')], root });
    const report = await ingestPaths(prisma, { tenantId, collection: 'acme', paths: [path.join(root, 'api')], root });
    expect(report.removed).toBe(1);
    const paths = (await prisma.document.findMany({ where: { tenantId }, select: { path: true } })).map((d) => d.path);
    expect(paths).toContain('api/fs.md');
    expect(paths).not.toContain('api/fs.html');
  });
});
