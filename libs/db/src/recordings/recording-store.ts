import { createHash } from 'node:crypto';
import { z } from 'zod';
import { TenantPolicy, type RecordedKind } from '@dossier/contracts';
import { describeError, ReplayAnswerMissingError, ReplayedFailureError } from '@dossier/errors';
import type { Db } from '../prisma.service';
import { fixedStatement, queryRows } from '../sql/query-rows';
import { currentRecordingScope, type RecordingScope } from './recording-scope';

/** One external call: its kind, what identifies its request, and a name for people (errors, exports). */
export interface RecordedCall {
  kind: RecordedKind;
  /** JSON of everything that decides the answer, without tenant or run ids (a replay elsewhere asks the same). */
  request: unknown;
  name: string;
}

export const DEFAULT_RETENTION_DAYS = 30;
export const DEFAULT_SEARCH_CACHE_TTL_HOURS = 24;
const DAY_MS = 24 * 3_600_000;

/** JSON with object keys sorted, so equal values hash equally whatever order they were built in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The identity of a call's request. A model request is already a SHA-256 of its body (llm_calls.request_hash). */
export function requestHashOf(call: RecordedCall): string {
  return call.kind === 'model' && typeof call.request === 'string' ? call.request : sha256(canonicalJson(call.request));
}

type Lookup<T> = { answer: T } | null;

/** Per scope: is this step live (recorded anew) or answered from the replayed run's recording? */
const liveness = new WeakMap<RecordingScope, Promise<boolean>>();
const policies = new WeakMap<RecordingScope, Promise<{ retentionMs: number; searchCacheTtlMs: number }>>();

/**
 * Whether the scope's calls go to the network. Not a replay: yes. A whole replay: never. A replay `from` a node: from
 * the first step of that node on — this step is of it, or a step of it has already started in this run (so a loop
 * back to an earlier node after it is live too).
 */
function isLive(scope: RecordingScope): Promise<boolean> {
  const { replay } = scope;
  if (!replay) return Promise.resolve(true);
  if (!replay.from) return Promise.resolve(false);
  if (scope.node === replay.from) return Promise.resolve(true);
  let known = liveness.get(scope);
  if (!known) {
    known = scope.db.nodeExecution
      .findFirst({ where: { tenantId: scope.tenantId, runId: scope.runId, node: replay.from }, select: { stepKey: true } })
      .then((row) => row !== null);
    liveness.set(scope, known);
  }
  return known;
}

function policyOf(scope: RecordingScope): Promise<{ retentionMs: number; searchCacheTtlMs: number }> {
  let known = policies.get(scope);
  if (!known) {
    known = scope.db.tenant.findUnique({ where: { id: scope.tenantId }, select: { policy: true } }).then((t) => {
      const parsed = TenantPolicy.safeParse(t?.policy ?? {});
      const r = parsed.success ? parsed.data.recordings : undefined;
      return {
        retentionMs: (r?.retentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS,
        searchCacheTtlMs: (r?.searchCacheTtlHours ?? DEFAULT_SEARCH_CACHE_TTL_HOURS) * 3_600_000,
      };
    });
    policies.set(scope, known);
  }
  return known;
}

/** One link of a batch: a call of the scope's step and the canonical JSON of the answer it consumed. */
interface PendingLink {
  kind: RecordedKind;
  requestHash: string;
  call: string;
  answerHash: string;
  json: string;
}

/**
 * The links (and answers) of a batch in one statement (docs/decisions/0158): the calls upserted, then the answers the
 * tenant lacks inserted, both in the statement's one transaction. The last answer wins on a call linked again: a step
 * that failed and ran again consumed, in the attempt that completed, the later answer. The answers' text goes to
 * Postgres as the canonical JSON already hashed, cast to jsonb there.
 */
const LINK = fixedStatement(`WITH linked AS (
  INSERT INTO run_recordings (id, tenant_id, run_id, step, kind, request_hash, call, answer_hash, expires_at)
  SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3, l.kind, l.request_hash, l.call, l.answer_hash, $4::timestamptz
    FROM unnest($5::text[], $6::text[], $7::text[], $8::text[]) AS l(kind, request_hash, call, answer_hash)
  ON CONFLICT (run_id, step, kind, request_hash) DO UPDATE SET answer_hash = EXCLUDED.answer_hash, expires_at = EXCLUDED.expires_at
)
INSERT INTO recorded_answers (tenant_id, hash, kind, body, bytes)
SELECT $1::uuid, a.hash, a.kind, a.json::jsonb, a.bytes
  FROM unnest($9::text[], $10::text[], $11::text[], $12::int[]) AS a(hash, kind, json, bytes)
ON CONFLICT DO NOTHING`);

/** Per scope: the links asked for in this turn, written together when the turn's callbacks have run. */
const pendingLinks = new WeakMap<RecordingScope, { links: PendingLink[]; written: Promise<void> }>();

/**
 * Links the run's step to the answer (once per step and request) and stores the answer if the tenant lacks it. The
 * links a step asks for together — a retrieve shard's documents, each its own recorded call, whose answers arrive in
 * one turn — go in one statement instead of two each (decision 0158): the batch is written on the next tick, after
 * the promise callbacks queued now have run, and every caller awaits that one write (and sees its error).
 */
function link(scope: RecordingScope, call: RecordedCall, requestHash: string, answer: unknown): Promise<void> {
  const json = canonicalJson(answer);
  const entry: PendingLink = { kind: call.kind, requestHash, call: call.name.slice(0, 500), answerHash: sha256(json), json };
  let batch = pendingLinks.get(scope);
  if (!batch) {
    const links: PendingLink[] = [];
    const written = new Promise<void>((resolve, reject) => {
      process.nextTick(() => {
        pendingLinks.delete(scope);
        writeLinks(scope, links).then(resolve, reject);
      });
    });
    batch = { links, written };
    pendingLinks.set(scope, batch);
  }
  batch.links.push(entry);
  return batch.written;
}

async function writeLinks(scope: RecordingScope, pending: readonly PendingLink[]): Promise<void> {
  // One row per call (the last answer asked for wins, as when each was its own upsert) and per answer.
  const links = [...new Map(pending.map((l) => [`${l.kind} ${l.requestHash}`, l])).values()];
  const answers = [...new Map(pending.map((l) => [l.answerHash, l])).values()];
  const { retentionMs } = await policyOf(scope);
  const expiresAt = new Date(Date.now() + retentionMs).toISOString();
  await queryRows(scope.db, {
    fixed: LINK,
    values: [
      scope.tenantId,
      scope.runId,
      scope.step,
      expiresAt,
      links.map((l) => l.kind),
      links.map((l) => l.requestHash),
      links.map((l) => l.call),
      links.map((l) => l.answerHash),
      answers.map((a) => a.answerHash),
      answers.map((a) => a.kind),
      answers.map((a) => a.json),
      answers.map((a) => Buffer.byteLength(a.json)),
    ],
  });
}

/** A call that failed when it was recorded: what failed, redacted as every error message is. */
const RecordedFailure = z.strictObject({ failed: z.string(), error: z.string() });

async function readBody(db: Db, tenantId: string, answerHash: string): Promise<unknown> {
  const row = await db.recordedAnswer.findUnique({ where: { tenantId_hash: { tenantId, hash: answerHash } }, select: { body: true } });
  return row?.body ?? null;
}

async function readAnswer<T>(db: Db, tenantId: string, answerHash: string, schema: z.ZodType<T>): Promise<T | null> {
  const parsed = schema.safeParse(await readBody(db, tenantId, answerHash));
  return parsed.success ? parsed.data : null;
}

/**
 * The recorded answer of a call when the current step replays, else null (go live, then `recordAnswer`). A replayed
 * step whose recording lacks the call throws ReplayAnswerMissingError naming it: it never falls back to the network.
 */
export async function replayedAnswer<T>(call: RecordedCall, schema: z.ZodType<T>): Promise<Lookup<T>> {
  const scope = currentRecordingScope();
  if (!scope?.replay || (await isLive(scope))) return null;
  const requestHash = requestHashOf(call);
  const row = await scope.db.runRecording.findFirst({
    where: { tenantId: scope.tenantId, runId: scope.replay.of, step: scope.step, kind: call.kind, requestHash },
    select: { answerHash: true },
  });
  const body = row ? await readBody(scope.db, scope.tenantId, row.answerHash) : null;
  const failure = RecordedFailure.safeParse(body);
  if (failure.success) {
    await link(scope, call, requestHash, failure.data);
    throw new ReplayedFailureError(`${call.name} failed when run ${scope.replay.of} was recorded: ${failure.data.failed}`, {
      runId: scope.runId,
      details: { kind: call.kind, call: call.name, step: scope.step, recordedError: failure.data.error },
    });
  }
  const parsed = schema.safeParse(body);
  const answer = parsed.success ? parsed.data : null;
  if (answer === null) {
    throw new ReplayAnswerMissingError(
      `The recording of run ${scope.replay.of} has no answer for ${call.kind} call ${call.name} in step ${scope.step} (request ${requestHash.slice(0, 12)})`,
      { runId: scope.runId, details: { kind: call.kind, call: call.name, step: scope.step, replayOf: scope.replay.of } },
    );
  }
  // The replay's own recording holds what it consumed too, so it can be replayed, exported or compared in turn.
  await link(scope, call, requestHash, answer);
  return { answer };
}

/** Records a live answer of the current step (nothing outside a step). */
export async function recordAnswer(call: RecordedCall, answer: unknown): Promise<void> {
  const scope = currentRecordingScope();
  if (scope) await link(scope, call, requestHashOf(call), answer);
}

/**
 * The tenant's answer to the same call from another run, recorded less than the search cache's TTL ago; null when the
 * run asked for fresh answers, the TTL is 0, or there is none.
 */
async function cachedAnswer<T>(scope: RecordingScope, call: RecordedCall, schema: z.ZodType<T>): Promise<Lookup<T>> {
  if (scope.freshSearch) return null;
  const { searchCacheTtlMs } = await policyOf(scope);
  if (searchCacheTtlMs <= 0) return null;
  const now = Date.now();
  const row = await scope.db.runRecording.findFirst({
    where: {
      tenantId: scope.tenantId,
      kind: call.kind,
      requestHash: requestHashOf(call),
      createdAt: { gte: new Date(now - searchCacheTtlMs) },
      expiresAt: { gt: new Date(now) },
    },
    orderBy: { createdAt: 'desc' },
    select: { answerHash: true },
  });
  const answer = row ? await readAnswer(scope.db, scope.tenantId, row.answerHash, schema) : null;
  return answer === null ? null : { answer };
}

/**
 * One external call at a boundary: replayed from the recording, or (with `cache`) reused from the tenant's recent
 * answers, or made live; whichever, the run's recording gets the answer it consumed.
 */
export async function recorded<T>(
  call: RecordedCall,
  schema: z.ZodType<T>,
  live: () => Promise<T>,
  opts: { cache?: boolean } = {},
): Promise<T> {
  const replayed = await replayedAnswer(call, schema);
  if (replayed) return replayed.answer;
  const scope = currentRecordingScope();
  if (!scope) return live();
  const cached = opts.cache ? await cachedAnswer(scope, call, schema) : null;
  let answer: T;
  try {
    answer = cached ? cached.answer : await live();
  } catch (err) {
    // A failure is an answer too: the replay fails the call the same way, and the step goes on as it did.
    const { name, message } = describeError(err);
    await link(scope, call, requestHashOf(call), { failed: message.slice(0, 2000), error: name } satisfies z.infer<typeof RecordedFailure>);
    throw err;
  }
  await link(scope, call, requestHashOf(call), answer);
  return answer;
}
