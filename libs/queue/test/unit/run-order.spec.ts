import { randomUUID } from 'node:crypto';
import { CYCLE_MS, RESOLUTION_MS, runPriority, TIE_BREAKS } from '../../src/run-order';

/** BullMQ's bounds: 1 goes first, 2^21 − 1 last among prioritised jobs; 0 (none) before them all. */
const LAST = 2 ** 21 - 1;

describe('runPriority: the steps of older runs first', () => {
  const cycleStart = 40 * CYCLE_MS;
  const now = cycleStart + 3_600_000;
  const run = randomUUID();

  it('orders runs of the current cycle by their creation, within BullMQ bounds', () => {
    const created = [cycleStart, cycleStart + RESOLUTION_MS, cycleStart + 60_000, now - RESOLUTION_MS, now];
    // Each run its own id: an older run goes first whatever its id hashes to.
    const priorities = created.map((c) => runPriority(randomUUID(), c, now)!);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    expect(new Set(priorities).size).toBe(created.length);
    expect(priorities[0]).toBeGreaterThanOrEqual(2);
    expect(priorities[0]).toBeLessThan(2 + TIE_BREAKS);
    expect(priorities.every((p) => Number.isInteger(p) && p >= 2 && p <= LAST)).toBe(true);
    // The whole cycle fits: its last tick's priorities stay within BullMQ's bound.
    const lastTick = Array.from({ length: 500 }, () => runPriority(randomUUID(), cycleStart + CYCLE_MS - 1, cycleStart + CYCLE_MS - 1)!);
    expect(Math.max(...lastTick)).toBeLessThanOrEqual(LAST);
    expect(Math.min(...lastTick)).toBeGreaterThan(runPriority(randomUUID(), cycleStart + CYCLE_MS - 1 - RESOLUTION_MS, now)!);
  });

  it('runs created in the same tick are ordered by their id, the same in every process; one run keeps one priority', () => {
    const at = cycleStart + 100;
    const ids = Array.from({ length: 64 }, () => randomUUID());
    const priorities = ids.map((id) => runPriority(id, at, now)!);
    // 64 ids over TIE_BREAKS (128) values: spread, not one priority for all (ids that hash alike share one).
    expect(new Set(priorities).size).toBeGreaterThan(32);
    // All within the cycle's first tick.
    expect(priorities.every((p) => p >= 2 && p < 2 + TIE_BREAKS)).toBe(true);
    // A pure function of the id and the tick: asked again (another service, a later step) it answers the same.
    expect(ids.map((id) => runPriority(id, at + RESOLUTION_MS - 101, now + 5_000))).toEqual(priorities);
    expect(runPriority(run, at, now)).toBe(runPriority(run, at + 1, now));
  });

  it('a run created before the cycle began goes before every run of the cycle, however late in the last cycle', () => {
    const late = cycleStart - 1;
    const early = cycleStart - CYCLE_MS + 5;
    expect(runPriority(run, late, now)).toBe(1);
    expect(runPriority(run, early, now)).toBe(1);
    expect(runPriority(run, late, now)!).toBeLessThan(runPriority(randomUUID(), cycleStart, now)!);
    // The same run, enqueued again at the end of its own cycle, had the last tick of that cycle.
    expect(runPriority(run, late, cycleStart - 1)).toBe(runPriority(run, now + 10 * CYCLE_MS, now));
  });

  it('a run whose creation is ahead of this clock is in the last tick; a job without a creation time is unprioritised', () => {
    expect(runPriority(run, now + 10 * CYCLE_MS, now)).toBe(runPriority(run, cycleStart + CYCLE_MS - 1, now));
    expect(runPriority(run, now + 10 * CYCLE_MS, now)!).toBeLessThanOrEqual(LAST);
    expect(runPriority(run, undefined, now)).toBeUndefined();
  });
});
