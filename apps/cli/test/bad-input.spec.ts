import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { cliRunner, EXAMPLES } from './cli-harness';

describe('dossier: bad input gets a clear message, never a crash', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;
  beforeAll(async () => {
    db = await createTestDatabase();
    cli = cliRunner(db);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('an empty question', async () => {
    const r = await cli(['research', '   ']);
    expect(r.code).toBe(2);
    expect(r.output).toMatch(/dossier: research needs one non-empty QUESTION/);
  });

  it('a missing path', async () => {
    const r = await cli(['ingest', '/no/such/folder']);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/\/no\/such\/folder/);
    expect(r.output).not.toMatch(/at .*\.ts:\d+/);
  });

  it('an empty corpus', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'dossier-empty-'));
    const r = await cli(['research', 'Anything?', '--corpus', empty, '--collection', 'empty']);
    expect(r.code).toBe(2);
    expect(r.output).toMatch(/has no readable documents/);
  });

  it('binary, empty and corrupt files: ingest goes on past them and lists each', async () => {
    const r = await cli([
      'ingest',
      path.join(EXAMPLES, 'bad-inputs'),
      path.join(EXAMPLES, 'corpus', 'krwa-faq-lake-varen.md'),
      '--collection',
      'mixed',
    ]);
    expect(r.output).toMatch(/Ingested 1 new/);
    expect(r.output).toMatch(/failed .*truncated-report\.pdf: /);
    expect(r.output).toMatch(/failed .*notes\.txt: /);
    expect(r.output).toMatch(/failed .*empty\.md: /);
    expect(r.code).toBe(0);
  });

  it('unknown options, engines and commands are named', async () => {
    expect((await cli(['research', 'q', '--engine', 'gpt9'])).output).toMatch(/--engine must be offline or openai, got "gpt9"/);
    expect((await cli(['frobnicate'])).output).toMatch(/Unknown command "frobnicate"/);
    expect((await cli(['show', 'not-a-run'])).output).toMatch(/"not-a-run" is not a run id/);
    expect((await cli(['research', 'q', '--max-iterations', 'lots'])).output).toMatch(/--max-iterations must be a whole number/);
  });
});
