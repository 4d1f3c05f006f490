import { ingestPaths } from '../../src';
import { newTenant, openDatabase, type TestClient } from '../fixtures/database';
import { tempFolder, writeTree } from '../fixtures/files';
import { articlePage } from '../fixtures/html-pages';

const FILES = 1000;
const WORDS = [
  'reservoir',
  'drawdown',
  'turbine',
  'sediment',
  'inflow',
  'evaporation',
  'canal',
  'seepage',
  'gauge',
  'survey',
  'spawning',
  'permit',
  'schedule',
  'basin',
  'aquifer',
  'rainfall',
];

function paragraph(seed: number, n: number): string {
  const words: string[] = [];
  for (let i = 0; i < 60; i++) words.push(WORDS[(seed * 31 + n * 17 + i * 7) % WORDS.length]!);
  return `Report ${seed}.${n}: ${words.join(' ')} measured ${seed * 3 + n} units.`;
}

describe('ingestion throughput (real Postgres)', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let prisma: TestClient;
  let folder: Awaited<ReturnType<typeof tempFolder>>;

  beforeAll(async () => {
    database = await openDatabase();
    prisma = database.prisma;
    folder = await tempFolder('throughput');
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) {
      files[`batch-${Math.floor(i / 100)}/page-${String(i).padStart(4, '0')}.html`] = articlePage(
        `Page ${i}`,
        [0, 1, 2, 3, 4, 5].map((n) => paragraph(i, n)),
      );
    }
    await writeTree(folder.dir, files);
  });
  afterAll(async () => {
    await folder?.cleanup();
    await database?.close();
  });

  it(`ingests ${FILES} generated html files, then re-checks them without writing`, async () => {
    const tenantId = newTenant();
    let started = performance.now();
    const first = await ingestPaths(prisma, { tenantId, collection: 'bulk', paths: [folder.dir] });
    const firstSeconds = (performance.now() - started) / 1000;
    expect(first).toMatchObject({ scanned: FILES, ingested: FILES, failed: [] });

    started = performance.now();
    const second = await ingestPaths(prisma, { tenantId, collection: 'bulk', paths: [folder.dir] });
    const secondSeconds = (performance.now() - started) / 1000;
    expect(second).toMatchObject({ unchanged: FILES, ingested: 0, updated: 0 });

    // Reported, not asserted: the machine is shared and timings vary.
    process.stdout.write(
      `ingest throughput: first run ${(FILES / firstSeconds).toFixed(0)} docs/s (${firstSeconds.toFixed(1)} s), ` +
        `unchanged re-run ${(FILES / secondSeconds).toFixed(0)} docs/s (${secondSeconds.toFixed(1)} s)\n`,
    );
  });
});
