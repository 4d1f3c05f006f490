/**
 * Runs a bench script's `main` and ends the process with its outcome: 0 when it resolves, 1 with the error printed when
 * it fails. The exit is explicit because a bench leaves clients and timers of the services it drove behind.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
