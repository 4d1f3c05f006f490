import { createHash } from 'node:crypto';
import { createRedisBackend, type BackendFactory, type RedisClient, type RedisQueueBackend, type WorkerOptions } from 'bullmq';
// BullMQ's built script (its includes expanded), the text its own connection defines as `moveToActive:<version>`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const stock = require('bullmq/dist/cjs/scripts/moveToActive-11.js') as { moveToActive: Script };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const stockFinished = require('bullmq/dist/cjs/scripts/moveToFinished-14.js') as { moveToFinished: Script };
type Script = { content: string; keys: number };

/**
 * A worker backend whose fetch does not ask Redis what it already knows (docs/decisions/0144).
 *
 * BullMQ's `moveToActive` script re-adds the queue's wake-up marker after every job it takes, wait list empty or not,
 * and the worker fetches ahead after every job it takes (its concurrency has free slots). A worker that takes the only
 * job of its queue therefore asks once more (`moveToActive`, empty), then pops the stale marker (`BZPOPMIN` answers at
 * once) and asks again (empty) before it blocks: three Redis commands per step above the floor at one run at a time.
 *
 * Here, with no other change to BullMQ's loop:
 * 1. **The marker is re-added only if jobs still wait** (the wait list or the prioritized set is not empty), in both
 *    scripts that take a job (`moveToActive`, and `moveToFinished` when it fetches the next). `moveToActive` also says so
 *    in a fifth element: -1 if jobs wait, else what an empty `moveToActive` would have answered in its fourth (the next
 *    delayed job's time, or 0). Every job added afterwards adds the marker itself (`addJobInTargetList`; a delayed job
 *    its own), so "wait not empty ⇒ a marker, or a worker about to `moveToActive`" still holds: a worker blocked on the
 *    marker is woken for every job as before, and none is woken for nothing.
 * 2. **The fetch-ahead right after a job that left the queue empty is answered here**, with what the script said: no
 *    job, the next delayed time. The worker marks itself drained and blocks on the marker. A job added since is not
 *    missed: its add wrote the marker, so `BZPOPMIN` answers at once and the next `moveToActive` is a real one. The
 *    answer is given only to the very next `moveToActive` of this backend, and never after a `waitForJob` (a worker
 *    woken by a marker always asks Redis), so at worst it costs one `BZPOPMIN` when jobs arrived in between.
 *
 * Nothing is taken, locked, completed or moved differently: the scripts' other lines, the job's lock, the stalled check
 * and the retries are BullMQ's. Not used with a rate limiter (its answers carry the limiter's delay, which this one does
 * not know): the workers here have none.
 */
export const drainAwareBackend: BackendFactory<RedisQueueBackend> = (name, opts, options) => {
  const backend = createRedisBackend(name, opts, options);
  if ((opts as WorkerOptions).limiter) return backend;
  // What the script answered after taking a job, while no Redis command of the fetch loop has been sent since.
  let drainedUntil: number | undefined;
  const execCommand = backend.execCommand.bind(backend);
  const moveToActive = backend.moveToActive.bind(backend);
  const waitForJob = backend.waitForJob.bind(backend);
  backend.execCommand = (client, commandName, args) => {
    if (!isVariant(commandName) || typeof (client as Partial<RedisClient>).defineCommand !== 'function') {
      return execCommand(client, commandName, args);
    }
    const redis = client as RedisClient;
    const sent = redis.runCommand(variantOn(redis, commandName), args);
    if (commandName === 'moveToFinished') return sent;
    return sent.then((raw: unknown[]) => {
      const after = raw?.[4];
      if (raw?.[0] && typeof after === 'number' && after >= 0) drainedUntil = after;
      return raw?.slice(0, 4);
    });
  };
  backend.moveToActive = (token, workerName) => {
    const answer = drainedUntil;
    drainedUntil = undefined;
    // The shape of an empty answer (raw2NextJobData of `{0, 0, 0, next delayed time}`): no job, no rate limit.
    if (answer !== undefined) return Promise.resolve([null, 0, 0, answer]);
    return moveToActive(token, workerName);
  };
  // Cleared when the wait starts and when it ends: a `moveToActive` that answered meanwhile (a failed job's fetch) does
  // not speak for a job whose marker woke this one.
  backend.waitForJob = (blockTimeout) => {
    drainedUntil = undefined;
    return waitForJob(blockTimeout).finally(() => (drainedUntil = undefined));
  };
  return backend;
};

/** The anchor in BullMQ's `prepareJobForProcessing`: the marker re-added and the job returned (checked at boot). */
const ANCHOR = `  addBaseMarkerIfNeeded(markerKey, false)
  -- rate limit delay must be 0 in this case to prevent adding more delay
  -- when job that is moved to active needs to be processed
  return {rcall("HGETALL", jobKey), jobId, 0, 0} -- get job data`;

// KEYS[1] the wait list, KEYS[3] the prioritized set, KEYS[7] the delayed set (the same in both scripts).
const STILL_WAITING = `  local stillWaiting = rcall("LLEN", KEYS[1]) > 0 or rcall("ZCARD", KEYS[3]) > 0`;

/**
 * The two scripts that take a job, with the marker re-added only if jobs still wait. `moveToActive` also answers
 * whether the queue is now empty (above); `moveToFinished`'s `fetchNext` keeps BullMQ's four-element answer (the job it
 * fetched is run by BullMQ's processing chain, not by the fetch loop, so nothing reads a fifth).
 */
const VARIANTS = {
  moveToActive: {
    name: 'dossierMoveToActive',
    stock: stock.moveToActive,
    replacement: `${STILL_WAITING}
  local drainedUntil = -1
  if stillWaiting then
    addBaseMarkerIfNeeded(markerKey, false)
  else
    drainedUntil = getNextDelayedTimestamp(KEYS[7]) or 0
  end
  return {rcall("HGETALL", jobKey), jobId, 0, 0, drainedUntil}`,
  },
  moveToFinished: {
    name: 'dossierMoveToFinished',
    stock: stockFinished.moveToFinished,
    replacement: `${STILL_WAITING}
  if stillWaiting then
    addBaseMarkerIfNeeded(markerKey, false)
  end
  return {rcall("HGETALL", jobKey), jobId, 0, 0}`,
  },
} as const;
type Variant = keyof typeof VARIANTS;
const isVariant = (name: string): name is Variant => Object.hasOwn(VARIANTS, name);

/** A variant script's text; throws if BullMQ's script no longer has the anchor (a BullMQ upgrade must look again). */
export function drainAwareScript(command: Variant): string {
  const parts = VARIANTS[command].stock.content.split(ANCHOR);
  if (parts.length !== 2) throw new Error(`BullMQ's ${command} script changed: docs/decisions/0144 needs a new look`);
  return parts.join(VARIANTS[command].replacement);
}

const texts = new Map<Variant, string>();

/** Defines the variant on the worker's connection once, beside BullMQ's own scripts; its name there. */
function variantOn(client: RedisClient, command: Variant): string {
  const { name, stock: script } = VARIANTS[command];
  if (!(client as unknown as Record<string, unknown>)[name]) {
    let lua = texts.get(command);
    if (!lua) texts.set(command, (lua = drainAwareScript(command)));
    client.defineCommand(name, { numberOfKeys: script.keys, lua });
  }
  return name;
}

/**
 * Every Lua script a worker may send, by the SHA1 that `EVALSHA` carries: BullMQ's scripts by their own names and the
 * drain-aware variants as "<command> (drain-aware)". For counting Redis commands by name (the step bench, its spec).
 */
export function redisScriptNames(): ReadonlyMap<string, string> {
  const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- BullMQ's built scripts (no typed export)
  const scripts = require('bullmq/dist/cjs/scripts/index.js') as Record<string, { name: string; content: string }>;
  const byHash = new Map<string, string>();
  for (const { name, content } of Object.values(scripts)) byHash.set(sha1(content), name);
  for (const command of Object.keys(VARIANTS) as Variant[]) byHash.set(sha1(drainAwareScript(command)), `${command} (drain-aware)`);
  return byHash;
}
