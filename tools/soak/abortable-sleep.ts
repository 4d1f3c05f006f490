/** Sleeps `ms`, or less if `stop` aborts first. */
export function sleep(ms: number, stop?: AbortSignal): Promise<void> {
  if (ms <= 0 || stop?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      stop?.removeEventListener('abort', done);
      resolve();
    }
    stop?.addEventListener('abort', done, { once: true });
  });
}
