/**
 * A worker's liveness outside its event loop (docs/decisions/0027): before a BullMQ worker takes its first job,
 * `hold` records its id somewhere that stays true exactly as long as the process lives (the engine holds a
 * Postgres advisory lock per worker id on a connection of its own). The conductor's stall watch reads it to
 * tell a dead worker's active job from a busy one.
 */
export interface WorkerLiveness {
  hold(workerIds: readonly string[]): Promise<void>;
}

export const WORKER_LIVENESS = Symbol('WORKER_LIVENESS');
