/**
 * A step job's place in its queue: the steps of older runs first (docs/decisions/0159). BullMQ serves the jobs of one
 * priority in the order they were added; with one priority for all, runs submitted together advanced in lockstep — every
 * run's extract shards before any run's next step — so each service waited on the others in turn, and a second process
 * per service added 1.5× where the model allowed 2×. Ordered by their run's creation, the oldest run's next step goes
 * first wherever it waits, and the runs flow through the services one behind another.
 *
 * BullMQ priorities are integers from 1 (first) to 2^21 − 1; lower goes first, and a job without one (0) goes before
 * every prioritised job. A run's creation time is mapped into that range by cycles of RESOLUTION_MS × TICKS (about 4.6
 * hours): a run created in the current cycle gets 2 + its offset in the cycle, a run created before the cycle began
 * gets 1, ahead of them all (it is older than any of them), so the range never wraps over an older run.
 *
 * Runs created in the same RESOLUTION_MS are ordered by their id (docs/decisions/0161): each tick of the cycle holds
 * TIE_BREAKS priorities, and a run takes the one its id hashes to. Runs submitted together (a batch through the API,
 * within a few milliseconds) would otherwise share a priority and move in lockstep among themselves, as every run did
 * before 0159. The id is the same in every process, so every service orders them alike.
 */
export const RESOLUTION_MS = 1_000;
/** Priorities per tick: runs of one tick whose ids hash alike (one pair in TIE_BREAKS) still share one. */
export const TIE_BREAKS = 128;
/** Priorities 2 … 2^21 − 1 for the runs of the current cycle, in ticks of TIE_BREAKS; 1 for older runs. */
const TICKS = Math.floor((2 ** 21 - 2) / TIE_BREAKS);
export const CYCLE_MS = RESOLUTION_MS * TICKS;

/** FNV-1a of the run id, to TIE_BREAKS values: the same in every process. */
function tieBreak(runId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < runId.length; i++) h = Math.imul(h ^ runId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % TIE_BREAKS;
}

/**
 * The BullMQ priority of a step of run `runId` created at `runCreatedAt` (ms since the epoch), enqueued at `now`;
 * undefined for a job that does not say when its run was created (enqueued by an earlier version): it goes
 * unprioritised, first.
 */
export function runPriority(runId: string, runCreatedAt: number | undefined, now: number = Date.now()): number | undefined {
  if (runCreatedAt === undefined) return undefined;
  const cycleStart = now - (now % CYCLE_MS);
  if (runCreatedAt < cycleStart) return 1;
  // A run "created" after now (another host's clock ahead of this one) is the newest there is.
  const tick = Math.min(TICKS - 1, Math.floor((runCreatedAt - cycleStart) / RESOLUTION_MS));
  return 2 + tick * TIE_BREAKS + tieBreak(runId);
}
