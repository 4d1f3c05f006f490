import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startOtlpReceiver, type ChildService, type OtlpReceiver, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine, TENANT } from '../fixtures/engine';
import { expectOneTracePerRun, traceOneRun } from '../fixtures/trace-run';

const APPS = path.join(REPO_ROOT, 'apps');

/**
 * A real research job (offline engine, a slice of the example corpus) through the real services, each its
 * own process: the client, the conductor and the seven stage services. One trace id across all of them,
 * step spans with the run attributes, joins linking every shard, and LLM calls as GenAI spans inside steps.
 */
describe('tracing a real research job across the real services', () => {
  let db: TestDatabase;
  let receiver: OtlpReceiver;
  const children: ChildService[] = [];
  const vectors = mkdtempSync(path.join(tmpdir(), 'dossier-vectors-'));

  beforeAll(async () => {
    db = await prepareDatabase();
    receiver = await startOtlpReceiver();
    // A dozen text documents of the example corpus, ingested with the real CLI for tenant "test".
    const corpus = mkdtempSync(path.join(tmpdir(), 'dossier-corpus-'));
    const source = path.join(REPO_ROOT, 'examples/corpus');
    for (const f of readdirSync(source)
      .filter((n) => /\.(md|txt)$/.test(n))
      .sort()
      .slice(0, 12))
      copyFileSync(path.join(source, f), path.join(corpus, f));
    const ingest = spawnSync(
      process.execPath,
      ['-r', path.join(REPO_ROOT, 'tools/ts-register.cjs'), path.join(APPS, 'cli/src/main.ts'), 'ingest', corpus, '--collection', 'ops'],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          DOSSIER_TENANT: 'test',
          LOG_LEVEL: 'error',
          OTEL_SDK_DISABLED: 'true',
          VECTOR_DIR: vectors,
        },
        encoding: 'utf8',
      },
    );
    if (ingest.status !== 0) throw new Error(`ingest failed: ${ingest.stdout}${ingest.stderr}`);
  });
  afterAll(async () => {
    for (const c of children.splice(0)) {
      c.kill('SIGKILL');
      await c.exited;
    }
    await receiver?.close();
    await db?.drop();
  });

  it('one trace id across client, conductor and every stage service; GenAI spans inside steps', async () => {
    const options = {
      engine: 'offline',
      searchProviders: ['corpus'],
      collection: 'ops',
      maxIterations: 1,
      perspectives: 2,
      gates: { plan: 'auto', outline: 'auto', publish: 'auto' },
    };
    const traced = await traceOneRun({
      db,
      receiver,
      children,
      producer: (prefix) => startEngine(db, prefix, []),
      env: {
        TEST_TENANT_ID: TENANT,
        TEST_QUESTION: "What caused the decline of Lake Varen's water level, and how large was it?",
        TEST_RUN_OPTIONS: JSON.stringify(options),
        VECTOR_DIR: vectors,
      },
      stage: (service) => ({ entry: path.join(APPS, service, 'src/main.ts'), env: {} }),
    });
    const { inTrace, stepSpans } = expectOneTracePerRun(traced);

    const llm = inTrace.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(llm.length).toBeGreaterThan(0);
    const stepIds = new Set(stepSpans.map((s) => s.spanId));
    for (const s of llm) {
      expect(s.name).toBe(`chat ${String(s.attributes['gen_ai.request.model'])}`);
      expect(s.attributes).toEqual(
        expect.objectContaining({
          'gen_ai.provider.name': 'offline',
          'gen_ai.usage.input_tokens': expect.any(Number),
          'gen_ai.usage.output_tokens': expect.any(Number),
        }),
      );
      expect(stepIds.has(s.parentSpanId)).toBe(true);
    }
    expect(new Set(llm.map((s) => s.service)).size).toBeGreaterThanOrEqual(3);
  });
});
