import { CommanderError } from 'commander';
import { MissingPathError } from '@dossier/client';
import { describeError, DossierError } from '@dossier/errors';
import { CliUsageError } from './cli-error';
import { COMMANDS } from './commands';
import { buildProgram, describeCommanderError, type ProgramResult } from './framework/build-program';

/**
 * Runs `dossier` with these arguments and returns its exit code: 0 done, 1 the command failed (the message names
 * why, and the run id when there is one), 2 the command line was wrong (the message names the flag or argument).
 */
export async function runCli(argv: string[]): Promise<number> {
  const result: ProgramResult = { code: 0 };
  const program = buildProgram(COMMANDS, result);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return result.code;
  } catch (err) {
    if (err instanceof CommanderError) {
      const { message, code } = describeCommanderError(err);
      if (message) process.stderr.write(`dossier: ${message}\n`);
      return code;
    }
    const e = describeError(err);
    process.stderr.write(`dossier: ${e.message}${err instanceof DossierError && err.runId ? ` (run ${err.runId})` : ''}\n`);
    return err instanceof CliUsageError || err instanceof MissingPathError ? 2 : 1;
  }
}
