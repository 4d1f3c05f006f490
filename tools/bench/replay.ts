/**
 * `npm run bench` (part 6): record and replay (decision 0030). For the demo run (offline engine, corpus) and a run
 * against the local fake OpenAI server (openai engine, corpus, 1 iteration, 2 perspectives): the original run's time,
 * its replay's time (both from the run rows: created → completed, so process start and ingest are not counted), and
 * the size of its recording (calls, distinct answers, their bytes, and the gzip archive `dossier export` writes).
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { ROLES } from '@dossier/agents';
import { offlineRoleAnswer, createTestDatabase, FakeOpenAIServer, sql, startChildService, uniquePrefix } from '@dossier/testing';

const CLI = path.resolve(__dirname, '../../apps/cli/src/main.ts');
const CORPUS = path.resolve(__dirname, '../../examples/corpus');

/** A correct model: each role's offline answer to the input the engine echoed. */
const offlineAnswer = offlineRoleAnswer(ROLES);

async function cli(env: Record<string, string>, args: string[]): Promise<string> {
  const child = startChildService(CLI, env, 'dossier', args);
  const exit = await child.exited;
  await Promise.all([child.process.stdout, child.process.stderr].filter((s) => s !== null).map((s) => finished(s).catch(() => undefined)));
  if (exit.code !== 0) throw new Error(`dossier ${args[0]} exited ${exit.code}:\n${child.output().slice(-3000)}`);
  return child.output();
}

async function seconds(url: string, runId: string): Promise<number> {
  const [row] = await sql<{ s: number }>(
    url,
    'SELECT EXTRACT(EPOCH FROM completed_at - created_at)::float AS s FROM research_runs WHERE id = $1',
    [runId],
  );
  return row!.s;
}

async function measure(name: string, extraEnv: Record<string, string>, research: string[]): Promise<void> {
  const db = await createTestDatabase();
  try {
    const env = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: uniquePrefix('bench-replay'),
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-bench-vectors-')),
      LOG_LEVEL: 'error',
      OTEL_SDK_DISABLED: 'true',
      ...extraEnv,
    };
    const out = mkdtempSync(path.join(tmpdir(), 'dossier-bench-replay-'));
    const first = await cli(env, [...research, '--out', path.join(out, 'original')]);
    const runId = /Run ([0-9a-f-]{36})/.exec(first)![1]!;
    const replayed = await cli(env, ['replay', runId, '--out', path.join(out, 'replay')]);
    const replayId = /Run ([0-9a-f-]{36})/.exec(replayed)![1]!;
    const file = path.join(out, 'run.dossier.gz');
    const exported = await cli(env, ['export', runId, '--out', file]);
    const [, calls, answers, bytes] = /(\d+) recorded calls, (\d+) answers \((\d+) bytes of recording\)/.exec(exported)!;
    const [original, replay] = [await seconds(db.url, runId), await seconds(db.url, replayId)];
    console.log(
      `${name.padEnd(34)} run ${original.toFixed(1).padStart(6)} s   replay ${replay.toFixed(1).padStart(6)} s (${((replay / original) * 100).toFixed(0)} %)   recording ${calls} calls, ${answers} answers, ${(Number(bytes) / 1024).toFixed(0)} KiB (archive ${(statSync(file).size / 1024).toFixed(0)} KiB gzip)`,
    );
  } finally {
    await db.drop();
  }
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  console.log('Record and replay (times from the run rows; recording = distinct answers as stored, JSON bytes):');
  await measure('demo (offline engine, corpus)', {}, ['demo']);
  const model = await new FakeOpenAIServer({ answer: offlineAnswer }).start();
  try {
    await measure(
      'fake model (openai engine, corpus)',
      {
        OPENAI_BASE_URL: model.baseUrl,
        OPENAI_MODEL: 'fake-model',
        OPENAI_RATE_PER_SECOND: '50',
        OPENAI_MAX_OUTPUT_TOKENS: '32768',
        DOSSIER_LLM_TEST_ECHO: '1',
      },
      [
        'research',
        "How much did Lake Varen's water level fall, and did irrigation cause it?",
        '--engine',
        'openai',
        '--corpus',
        CORPUS,
      ].concat(['--collection', 'examples', '--max-iterations', '1', '--perspectives', '2']),
    );
  } finally {
    await model.stop();
  }
  process.exit(0);
}

void main();
