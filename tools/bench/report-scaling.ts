/**
 * `npm run bench` (part 2): report time against corpus size and ingest throughput, offline engine.
 * Corpus: the PostgreSQL HTML manual when installed (apt-get install postgresql-doc-15: 1,173 pages
 * nobody here wrote), padded to the larger sizes with deterministic re-mixes of its paragraphs; else
 * re-mixes of examples/corpus. Each size gets a fresh database; the CLI runs as its own process.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, startChildService, uniquePrefix } from '@dossier/testing';
import { runBench } from './run-bench';

const SIZES = (process.env['BENCH_SIZES'] ?? '100,1000,5000').split(',').map(Number);
const PG_DOCS = '/usr/share/doc/postgresql-doc-15/html';
const CLI = path.resolve(__dirname, '../../apps/cli/src/main.ts');
const QUESTION = process.env['BENCH_QUESTION'] ?? 'How does PostgreSQL vacuum reclaim storage and prevent transaction ID wraparound?';

function pool(): { files: string[]; paragraphs: string[] } {
  const dir = existsSync(PG_DOCS) ? PG_DOCS : path.resolve(__dirname, '../../examples/corpus');
  const files = readdirSync(dir)
    .filter((f) => /\.(html|md|txt)$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
  const paragraphs = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .replace(/<[^>]+>/g, ' ')
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s+/g, ' ').trim())
      .filter((p) => p.length > 200),
  );
  return { files, paragraphs };
}

function corpusOf(size: number, src: { files: string[]; paragraphs: string[] }): string {
  const dir = mkdtempSync(path.join(tmpdir(), `dossier-bench-${size}-`));
  const real = src.files.slice(0, size);
  for (const f of real) cpSync(f, path.join(dir, path.basename(f)));
  for (let i = real.length; i < size; i++) {
    // Deterministic re-mix: 12 paragraphs chosen by a fixed stride, as a new plain-text document.
    const parts = Array.from({ length: 12 }, (_, k) => src.paragraphs[(i * 7919 + k * 104729) % src.paragraphs.length]);
    writeFileSync(path.join(dir, `remix-${i}.txt`), `Document ${i}\n\n${parts.join('\n\n')}\n`);
  }
  return dir;
}

async function cli(dbUrl: string, prefix: string, args: string[]): Promise<{ ms: number; output: string; code: number | null }> {
  const started = Date.now();
  const child = startChildService(
    CLI,
    {
      DATABASE_URL: dbUrl,
      QUEUE_PREFIX: prefix,
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'v-')),
      LOG_LEVEL: 'error',
      OTEL_SDK_DISABLED: 'true',
    },
    'dossier',
    args,
  );
  const exit = await child.exited;
  return { ms: Date.now() - started, output: child.output(), code: exit.code };
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  const src = pool();
  console.log(
    `\nReport time against corpus size (offline engine; corpus: ${existsSync(PG_DOCS) ? 'PostgreSQL 15 HTML manual + re-mixes' : 'example corpus re-mixes'}; question: "${QUESTION}")`,
  );
  console.log('| documents | ingest s | ingest docs/s | research s | evidence | sources cited | contradictions |');
  console.log('|---|---|---|---|---|---|---|');
  for (const size of SIZES) {
    const db = await createTestDatabase();
    const dir = corpusOf(size, src);
    const prefix = uniquePrefix('scale');
    try {
      const ingest = await cli(db.url, prefix, ['ingest', dir, '--collection', 'bench']);
      if (ingest.code !== 0) throw new Error(`ingest failed: ${ingest.output.slice(-2000)}`);
      const out = path.join(dir, 'out');
      mkdirSync(out);
      const research = await cli(db.url, prefix, ['research', QUESTION, '--collection', 'bench', '--out', out]);
      if (research.code !== 0) throw new Error(`research failed: ${research.output.slice(-2000)}`);
      const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
        evidence: object;
        sources: object;
        contradictions: unknown[];
      };
      console.log(
        `| ${size} | ${(ingest.ms / 1000).toFixed(1)} | ${(size / (ingest.ms / 1000)).toFixed(0)} | ${(research.ms / 1000).toFixed(1)} | ${Object.keys(report.evidence).length} | ${Object.keys(report.sources).length} | ${report.contradictions.length} |`,
      );
    } finally {
      await db.drop();
    }
  }
}

runBench(main);
