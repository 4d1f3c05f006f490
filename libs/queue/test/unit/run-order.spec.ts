import { CYCLE_MS, RESOLUTION_MS, runPriority } from '../../src/run-order';

/** BullMQ's bounds: 1 goes first, 2^21 − 1 last among prioritised jobs; 0 (none) before them all. */
const LAST = 2 ** 21 - 1;

describe('runPriority: the steps of older runs first', () => {
  const cycleStart = 40 * CYCLE_MS;
  const now = cycleStart + 3_600_000;

  it('orders runs of the current cycle by their creation, within BullMQ bounds', () => {
    const created = [cycleStart, cycleStart + 25, cycleStart + 60_000, now - 1, now];
    const priorities = created.map((c) => runPriority(c, now)!);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    expect(new Set(priorities).size).toBe(created.length);
    expect(priorities[0]).toBe(2);
    expect(priorities.every((p) => Number.isInteger(p) && p >= 2 && p <= LAST)).toBe(true);
  });

  it('runs created within one resolution step share a priority (BullMQ then serves them in the order added)', () => {
    expect(runPriority(cycleStart + 100, now)).toBe(runPriority(cycleStart + 100 + RESOLUTION_MS - 1, now));
    expect(runPriority(cycleStart + 100 + RESOLUTION_MS, now)).toBe(runPriority(cycleStart + 100, now)! + 1);
  });

  it('a run created before the cycle began goes before every run of the cycle, however late in the last cycle', () => {
    const late = cycleStart - 1;
    const early = cycleStart - CYCLE_MS + 5;
    expect(runPriority(late, now)).toBe(1);
    expect(runPriority(early, now)).toBe(1);
    expect(runPriority(late, now)!).toBeLessThan(runPriority(cycleStart, now)!);
    // The same run, enqueued again at the end of its own cycle, had the last priorities of that cycle.
    expect(runPriority(late, cycleStart - 1)).toBe(LAST);
  });

  it('a run whose creation is ahead of this clock is the newest there is; a job without a creation time is unprioritised', () => {
    expect(runPriority(now + 10 * CYCLE_MS, now)).toBe(LAST);
    expect(runPriority(undefined, now)).toBeUndefined();
  });
});
