import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { sql, startChildService, uniquePrefix, waitFor, type TestDatabase } from '@dossier/testing';

export const CLI = path.resolve(__dirname, '../src/main.ts');
export const EXAMPLES = path.resolve(__dirname, '../../../examples');

export interface CliResult {
  code: number | null;
  output: string;
}

/** Runs the real `dossier` command in its own process against a test database and its own queues. */
export function cliRunner(db: TestDatabase) {
  const prefix = uniquePrefix('cli');
  const vectors = mkdtempSync(path.join(tmpdir(), 'dossier-vectors-'));
  return async (args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> => {
    const env = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: prefix,
      VECTOR_DIR: vectors,
      LOG_LEVEL: 'error',
      OTEL_SDK_DISABLED: 'true',
      ...extraEnv,
    };
    const child = startChildService(CLI, env, 'dossier', args);
    const exit = await child.exited;
    // 'exit' can come before the last output is read from the pipes (a message written just before
    // process.exit was lost this way): wait until both streams have ended.
    const streams = [child.process.stdout, child.process.stderr].filter((s) => s !== null);
    // A stream that errored has ended too: that is all this waits for.
    await Promise.all(streams.map((s) => finished(s).catch(() => undefined)));
    return { code: exit.code, output: child.output() };
  };
}

/**
 * The run whose `gate` (at `revision`) is open and waits for a decision: what `--approve prompt` without a terminal
 * leaves for `dossier approve` from another process.
 */
export function openGate(db: TestDatabase, gate: string, revision: number): Promise<string> {
  return waitFor(
    `the ${gate} gate (revision ${revision}) to open`,
    async () =>
      (
        await sql<{ run_id: string }>(
          db.url,
          "SELECT run_id FROM approval_decisions WHERE gate = $1 AND revision = $2 AND status = 'open'",
          [gate, revision],
        )
      )[0]?.run_id,
    { intervalMs: 200 },
  );
}
