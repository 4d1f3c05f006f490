/**
 * Waits at least `ms` milliseconds (timers may fire a little early against the monotonic clock, so it
 * re-arms until the deadline has really passed); rejects with the signal's reason when it aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const deadline = performance.now() + Math.max(0, ms);
  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const arm = () => {
      const left = deadline - performance.now();
      if (left <= 0) {
        signal?.removeEventListener('abort', onAbort);
        resolve();
        return;
      }
      timer = setTimeout(arm, Math.ceil(left));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
  });
}
