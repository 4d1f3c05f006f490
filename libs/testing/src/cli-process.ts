import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { REPO_ROOT, startChildService } from './child-service';
import type { TestDatabase } from './test-database';
import { uniquePrefix } from './wait-for';

/** The `dossier` command's entry point, run from source like the README's `npx dossier`. */
export const CLI = path.join(REPO_ROOT, 'apps/cli/src/main.ts');

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
