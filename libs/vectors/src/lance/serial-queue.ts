/**
 * Runs tasks one after another in call order. Each caller gets its own task's outcome; a failed task does
 * not stop the ones queued behind it.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // The chain only orders tasks; the outcome, failure included, belongs to `result`'s caller.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  drain(): Promise<void> {
    return this.tail;
  }
}
