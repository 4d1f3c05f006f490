/** Polls `probe` until it returns a value that is not undefined/false, or fails naming what it waited for. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function uniquePrefix(label: string): string {
  return `t-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
