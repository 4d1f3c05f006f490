/**
 * A step job's place in its queue: the steps of older runs first (docs/decisions/0159). BullMQ serves the jobs of one
 * priority in the order they were added; with one priority for all, runs submitted together advanced in lockstep — every
 * run's extract shards before any run's next step — so each service waited on the others in turn, and a second process
 * per service added 1.5× where the model allowed 2×. Ordered by their run's creation, the oldest run's next step goes
 * first wherever it waits, and the runs flow through the services one behind another.
 *
 * BullMQ priorities are integers from 1 (first) to 2^21 − 1; lower goes first, and a job without one (0) goes before
 * every prioritised job. A run's creation time is mapped into that range by cycles of RESOLUTION_MS × SLOTS (about
 * 5.8 hours): a run created in the current cycle gets 2 + its offset in the cycle in RESOLUTION_MS steps, a run
 * created before the cycle began gets 1, ahead of them all (it is older than any of them), so the range never wraps
 * over an older run. Runs of the same RESOLUTION_MS are served in the order their jobs were added, as before.
 */
export const RESOLUTION_MS = 10;
/** Priorities 2 … 2^21 − 1 for the runs of the current cycle; 1 for older runs. */
const SLOTS = 2 ** 21 - 2;
export const CYCLE_MS = RESOLUTION_MS * SLOTS;

/**
 * The BullMQ priority of a step of a run created at `runCreatedAt` (ms since the epoch), enqueued at `now`; undefined
 * for a job that does not say when its run was created (enqueued by an earlier version): it goes unprioritised, first.
 */
export function runPriority(runCreatedAt: number | undefined, now: number = Date.now()): number | undefined {
  if (runCreatedAt === undefined) return undefined;
  const cycleStart = now - (now % CYCLE_MS);
  if (runCreatedAt < cycleStart) return 1;
  // A run "created" after now (another host's clock ahead of this one) is the newest there is.
  return 2 + Math.min(SLOTS - 1, Math.floor((runCreatedAt - cycleStart) / RESOLUTION_MS));
}
