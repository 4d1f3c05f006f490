/** Things to undo, last first, exactly once: on success, on failure, and on SIGINT/SIGTERM. */
export class Cleanup {
  private readonly steps: { what: string; fn: () => Promise<unknown> | unknown }[] = [];
  private running: Promise<string[]> | undefined;

  add(what: string, fn: () => Promise<unknown> | unknown): void {
    this.steps.push({ what, fn });
  }

  /** Runs every step even when one fails; returns what failed. */
  run(): Promise<string[]> {
    this.running ??= (async () => {
      const failed: string[] = [];
      for (const step of this.steps.splice(0).reverse()) {
        try {
          await step.fn();
        } catch (err) {
          failed.push(`${step.what}: ${(err as Error).message}`);
        }
      }
      return failed;
    })();
    return this.running;
  }
}
