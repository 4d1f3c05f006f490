import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPrismaClient } from '@dossier/db';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { CorpusSearchProvider, ingestPaths } from '../../src';
import { newTenant, openDatabase } from '../fixtures/database';
import { tempFolder, writeTree } from '../fixtures/files';

/**
 * document_passages is derived from documents by a trigger. A data-only restore into a database the app migrated
 * (docs/operations.md, "Backups") runs the trigger under pg_restore's empty search_path; the trigger must still find
 * its function and table, and rebuild the passages it was not given.
 */
describe('document passages after a data-only pg_dump / pg_restore (real Postgres)', () => {
  let source: Awaited<ReturnType<typeof openDatabase>>;
  let target: TestDatabase;
  let work: string;
  let folder: Awaited<ReturnType<typeof tempFolder>>;
  const tenant = newTenant();

  beforeAll(async () => {
    source = await openDatabase();
    target = await createTestDatabase();
    work = mkdtempSync(path.join(tmpdir(), 'dossier-restore-'));
    folder = await tempFolder('restore');
    await writeTree(folder.dir, {
      'vacuum.md':
        '# Vacuum\n\nVacuum reclaims storage occupied by dead tuples.\n\n## Freezing\n\nFreezing marks old tuples as visible to all.',
      'wal.md': '# Write-ahead log\n\nThe write-ahead log records every change before it reaches the data files.',
    });
    await ingestPaths(source.prisma, { tenantId: tenant, collection: 'manual', paths: [folder.dir] });
  });
  afterAll(async () => {
    await folder?.cleanup();
    await source?.close();
    await target?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('restores every document, rebuilds its passages, and corpus search finds them', async () => {
    const passages = async (url: string) =>
      await sql<{ document_id: string; position: number; body: string }>(
        url,
        'SELECT document_id, position, body FROM document_passages ORDER BY 1, 2',
      );
    const before = await passages(source.db.url);
    expect(before.length).toBeGreaterThanOrEqual(4);

    const dump = path.join(work, 'data.dump');
    execFileSync('pg_dump', [
      '--data-only',
      '--format=custom',
      '--exclude-table-data=_prisma_migrations',
      '--exclude-table-data=document_passages',
      `--file=${dump}`,
      source.db.url,
    ]);
    // Without --disable-triggers (which needs a superuser): the trigger runs as it would for any operator.
    execFileSync('pg_restore', ['--data-only', '--exit-on-error', `--dbname=${target.url}`, dump], { stdio: 'pipe' });

    expect(await passages(target.url)).toEqual(before);
    const prisma = createPrismaClient({ url: target.url, poolMax: 2 });
    try {
      const hits = await new CorpusSearchProvider(prisma).search({ tenantId: tenant, query: 'dead tuples', limit: 3 });
      expect(hits[0]?.url).toBe('corpus://manual/vacuum.md');
    } finally {
      await prisma.$disconnect();
    }
  });
});
