import { Cleanup } from './cleanup';
import { parseSoakArgs, SoakUsageError } from './soak-config';
import { runSoak } from './soak';

/**
 * `npm run soak [-- --runs 50 --kills 100 --duration 840 --seed 1]`: prints one JSON summary on stdout (progress
 * on stderr) and exits 0 when every check held, 1 when one did not, 2 on bad flags or a soak that could not run.
 */
async function main(): Promise<number> {
  const config = parseSoakArgs(process.argv.slice(2));
  const cleanup = new Cleanup();
  const onSignal = (signal: string): void => {
    process.stderr.write(`soak: ${signal}: stopping everything it started\n`);
    void cleanup.run().finally(() => process.exit(130));
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  try {
    const summary = await runSoak(config, (line) => process.stderr.write(`soak: ${line}\n`), cleanup);
    const failed = await cleanup.run();
    for (const f of failed) process.stderr.write(`soak: cleanup: ${f}\n`);
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return summary.ok ? 0 : 1;
  } catch (err) {
    const failed = await cleanup.run();
    for (const f of failed) process.stderr.write(`soak: cleanup: ${f}\n`);
    throw err;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`soak: ${err instanceof SoakUsageError ? err.message : ((err as Error).stack ?? String(err))}\n`);
    process.exit(2);
  },
);
