import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, REPO_ROOT, uniquePrefix, type TestDatabase } from '@dossier/testing';
import { CLI, cliRunner, type CliResult } from './cli-harness';
import { matrixCorpus, QUESTION } from './model-matrix';

/** `dossier ARGS` from the folder `cwd`, with LOG_LEVEL and LOG_DESTINATION only as `logEnv` sets them. */
function dossierIn(cwd: string, env: Record<string, string>, logEnv: Record<string, string>, args: string[]): Promise<CliResult> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base['LOG_LEVEL'];
  delete base['LOG_DESTINATION'];
  const child = spawn(process.execPath, ['-r', path.join(REPO_ROOT, 'tools/ts-register.cjs'), CLI, ...args], {
    cwd,
    env: { ...base, NODE_ENV: 'test', DOSSIER_CONNECT_TIMEOUT_MS: '60000', OTEL_SDK_DISABLED: 'true', ...env, ...logEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

const JSON_LOG_LINE = /^\{"level":/m;

/** Issue 28: the terminal shows a research run's progress, not JSON log lines, unless LOG_LEVEL asks for them. */
describe('logs off the terminal unless asked for', () => {
  let db: TestDatabase;
  let quiet: CliResult;
  let asked: CliResult;
  const quietDir = mkdtempSync(path.join(tmpdir(), 'dossier-logs-'));
  const askedDir = mkdtempSync(path.join(tmpdir(), 'dossier-logs-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: uniquePrefix('cli'),
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-vectors-')),
    };
    expect((await cliRunner(db)(['ingest', matrixCorpus(), '--collection', 'logs'], env)).code).toBe(0);
    const research = ['research', QUESTION, '--collection', 'logs', '--max-iterations', '1', '--perspectives', '2', '--format', 'md'];
    quiet = await dossierIn(quietDir, env, {}, [...research, '--out', path.join(quietDir, 'out')]);
    asked = await dossierIn(askedDir, env, { LOG_LEVEL: 'info' }, [...research, '--out', path.join(askedDir, 'out')]);
  }, 600_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('without LOG_LEVEL: progress lines only, the logs in .dossier/dossier.log', () => {
    expect(quiet.code).toBe(0);
    expect(quiet.output).toMatch(/iteration 0 {2}/);
    expect(quiet.output).not.toMatch(JSON_LOG_LINE);
    const log = readFileSync(path.join(quietDir, '.dossier', 'dossier.log'), 'utf8');
    expect(log).toContain('"msg":"workers started"');
  });

  it('with LOG_LEVEL: the logs on the terminal (stderr), no log file', () => {
    expect(asked.code).toBe(0);
    expect(asked.output).toMatch(JSON_LOG_LINE);
    expect(asked.output).toContain('"msg":"workers started"');
    expect(existsSync(path.join(askedDir, '.dossier', 'dossier.log'))).toBe(false);
  });
});
