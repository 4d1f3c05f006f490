import { HANG_GUARD_MS } from './hang-guard';

/** Thrown by a probe when what it waits for can no longer happen: the wait fails at once with this error. */
export class StopWaiting extends Error {
  override readonly name = 'StopWaiting';
}

/**
 * Polls `probe` until it returns a value that is not undefined/false. A probe that throws `StopWaiting` ends
 * the wait with that error; other errors are retried (the last one is reported). Only a hang ends it
 * otherwise (`HANG_GUARD_MS`): slowness alone never fails a wait.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { intervalMs = 50 }: { intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + HANG_GUARD_MS;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      if (err instanceof StopWaiting) throw err;
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`Hung: waited ${HANG_GUARD_MS} ms for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function uniquePrefix(label: string): string {
  return `t-${label}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}
