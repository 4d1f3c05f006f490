import path from 'node:path';
import { sql, waitFor, type TestDatabase } from '@dossier/testing';

// The CLI process runner lives in libs/testing (the gateway's tests run `dossier admin` too).
export { CLI, cliRunner, type CliResult } from '@dossier/testing';

export const EXAMPLES = path.resolve(__dirname, '../../../examples');

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
