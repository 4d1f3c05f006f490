import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, REPO_ROOT, startChildService, uniquePrefix, waitFor, type TestDatabase } from '@dossier/testing';
import { CLI, cliRunner, openGate, type CliResult } from './cli-harness';
import { matrixCorpus, QUESTION } from './model-matrix';

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * `dossier research … --approve prompt` on a terminal (a pseudo-terminal from util-linux `script`), waiting at the plan
 * gate's question while keyboard input never comes; resolves with everything the terminal showed once it exits.
 */
function researchOnTerminal(env: Record<string, string>, args: string[]): { output: () => string; exited: Promise<CliResult> } {
  const node = [process.execPath, '--enable-source-maps', '-r', path.join(REPO_ROOT, 'tools/ts-register.cjs'), CLI, ...args];
  const child = spawn('script', ['-qfec', node.map(quote).join(' '), '/dev/null'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'test', DOSSIER_CONNECT_TIMEOUT_MS: '60000', ...env },
    // stdin stays open and silent: nobody answers at this terminal.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, output: out.replaceAll('\r\n', '\n') });
    }),
  );
  return { output: () => out, exited };
}

/** Issue 28: a prompting terminal notices a cancel from another shell, and `show` no longer calls the gate open. */
describe('cancel while prompting', () => {
  let db: TestDatabase;
  let runId: string;
  let result: CliResult;
  let showWaiting: CliResult;
  let showCancelled: CliResult;
  let resumedWaiting: CliResult;
  let resumedAuto: CliResult;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { QUEUE_PREFIX: uniquePrefix('cli'), VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-vectors-')) };
    const cli = (args: string[]) => cliRunner(db)(args, env);
    expect((await cli(['ingest', matrixCorpus(), '--collection', 'prompting'])).code).toBe(0);
    const terminal = researchOnTerminal({ ...env, DATABASE_URL: db.url, LOG_LEVEL: 'error', OTEL_SDK_DISABLED: 'true' }, [
      'research',
      QUESTION,
      '--collection',
      'prompting',
      '--max-iterations',
      '1',
      '--perspectives',
      '2',
      '--approve',
      'prompt',
    ]);
    runId = await openGate(db, 'plan', 0);
    await waitFor('the plan question at the terminal', () => terminal.output().includes('Approve the plan?') || undefined, {
      intervalMs: 200,
    });
    showWaiting = await cli(['show', runId]);
    expect((await cli(['cancel', runId, '--reason', 'asked the wrong question'])).code).toBe(0);
    result = await terminal.exited;
    showCancelled = await cli(['show', runId]);
    // `resume` without --approve: the reopened gate says how to decide it; cancelled again from here.
    const out = mkdtempSync(path.join(tmpdir(), 'dossier-resumed-'));
    const waiting = startChildService(
      CLI,
      { ...env, DATABASE_URL: db.url, LOG_LEVEL: 'error', OTEL_SDK_DISABLED: 'true' },
      'dossier resume',
      ['resume', runId, '--out', out],
    );
    await waiting.waitForOutput(/Gate plan is waiting for a decision: .*\n/);
    expect((await cli(['cancel', runId, '--reason', 'again'])).code).toBe(0);
    resumedWaiting = { code: (await waiting.exited).code, output: waiting.output() };
    resumedAuto = await cli(['resume', runId, '--approve', 'auto', '--out', out, '--format', 'md']);
  }, 600_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('stops asking and exits saying the run was cancelled', () => {
    expect(result.output).toContain(`Run ${runId} was cancelled from elsewhere (asked the wrong question). Not asking any more.`);
    expect(result.output).toContain(`Run ${runId} was cancelled (asked the wrong question); dossier resume ${runId} continues it`);
    // The exit code of every run that did not complete (CliUsageError).
    expect(result.code).toBe(2);
    // Asked once, never again after the cancel.
    expect(result.output.match(/Approve the plan\?/g)).toHaveLength(1);
  });

  it('show lists the gate open while the run waits, with the command that decides it', () => {
    expect(showWaiting.output).toContain('status       awaiting_approval (gate plan)');
    expect(showWaiting.output).toContain('  gate plan r0: open\n');
    expect(showWaiting.output).toContain(`dossier approve ${runId} plan (or --reject --feedback "what to change")`);
  });

  it('show no longer lists the gate open once the run is cancelled', () => {
    expect(showCancelled.code).toBe(0);
    expect(showCancelled.output).toContain('status       cancelled — asked the wrong question');
    expect(showCancelled.output).toContain(`  gate plan r0: not decided (run cancelled; dossier resume ${runId} reopens it)`);
    expect(showCancelled.output).not.toMatch(/gate plan r0: open/);
    expect(showCancelled.output).not.toContain('approve ');
  });

  it('resume without --approve prints the command that decides the reopened gate', () => {
    expect(resumedWaiting.output).toContain(
      `Gate plan is waiting for a decision: dossier approve ${runId} plan (or --reject --feedback "what to change")`,
    );
    expect(resumedWaiting.output).toContain(`Run ${runId} was cancelled (again)`);
    expect(resumedWaiting.code).toBe(2);
  });

  it('resume --approve auto approves each gate as it opens and completes the run', () => {
    expect(resumedAuto.output).toContain('Approved gate plan (--approve auto).');
    expect(resumedAuto.output).toContain('Approved gate outline (--approve auto).');
    expect(resumedAuto.output).toContain('Approved gate publish (--approve auto).');
    expect(resumedAuto.output).toMatch(/Report written to .*report\.md/);
    expect(resumedAuto.code).toBe(0);
  });
});
