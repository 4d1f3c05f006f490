/**
 * The timing of chains of hops (a step that dequeues, works and enqueues the next of its chain), shared by the step
 * bench's bare BullMQ floor (step-overhead.ts) and the designs bench (step-designs.ts).
 */

/** Microseconds on the process's monotonic clock: every interval a bench compares is taken in its one process. */
export const micros = (): number => Math.round(performance.now() * 1000);

/** Hops not counted at the start of each chain (or connection): connections, JIT. */
export const warmUp = (n: number): number => Math.min(20, Math.floor(n / 4));

/** Hops per chain when `chains` chains share `hops` hops: at least 8 each. */
export const hopsPerChain = (hops: number, chains: number): number => Math.max(8, Math.floor(hops / chains));

/** When each hop was dequeued, and when the hop it decided was enqueued, by hop id. */
export class HopMarks {
  readonly started = new Map<string, number>();
  readonly enqueued = new Map<string, number>();

  /**
   * Dequeue → next hop enqueued and dequeue → next hop dequeued, for every hop of `chains` chains of `perChain` hops
   * after each chain's warm-up. Throws when a counted hop was not recorded.
   */
  intervals(chains: number, perChain: number, id: (chain: number, n: number) => string): { overhead: number[]; hop: number[] } {
    const overhead: number[] = [];
    const hop: number[] = [];
    for (let c = 0; c < chains; c++) {
      for (let n = warmUp(perChain); n < perChain; n++) {
        const start = this.started.get(id(c, n));
        const next = this.enqueued.get(id(c, n + 1));
        const nextStart = this.started.get(id(c, n + 1));
        if (start === undefined || next === undefined || nextStart === undefined) throw new Error(`hop ${id(c, n)} was not recorded`);
        overhead.push(next - start);
        hop.push(nextStart - start);
      }
    }
    return { overhead, hop };
  }
}
