import { Inject, Injectable } from '@nestjs/common';
import {
  RunOptions,
  TERMINAL_RUN_STATUSES,
  stepKey,
  type AnyNodeResult,
  type GateName,
  type NodeName,
  type RunStatus,
  type StepJob,
} from '@dossier/contracts';
import {
  ApprovalRepository,
  CheckpointRepository,
  ExecutionRepository,
  PrismaService,
  RunEventRepository,
  RunRepository,
  holdWritesThisTurn,
  sqlTransaction,
  StepCommitRepository,
  stepOfKey,
  withRecordingScope,
  type Db,
  type OutboxRowData,
  type Prisma,
  type RunRow,
  type StepRunRow,
} from '@dossier/db';
import {
  classifyError,
  describeError,
  InvalidStepPayloadError,
  InvalidStepResultError,
  publicError,
  RunNotFoundError,
} from '@dossier/errors';
import type { JobControl, StepProcessor } from '@dossier/queue';
import { createLogger, injectTraceCarrier } from '@dossier/telemetry';
import { z } from 'zod';
import { gateReturningTo, nodeSpec } from '../graph/workflow-graph';
import type { WorkflowGraphs } from '../graph/workflow-graphs';
import { route } from '../graph/router';
import { OutboxSender } from '../outbox/outbox-sender';
import { WORKFLOW_GRAPHS, WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';
import { RunFailures } from './run-failures';
import type { StepContext, StepHandler, StepOutcome } from './step-handler';
import { StepLeases } from './step-leases';
import { TransitionWriter } from './transition-writer';
import { admitStep } from '../hosting/step-admission';

export type StepRunResult = { status: 'completed' | 'skipped'; reason?: string };

const PayloadIds = z.object({ tenantId: z.uuid(), runId: z.uuid() });

/** Thrown inside a step's transaction when its attempt was fenced (see `complete`): rolls it back; never leaves the runner. */
const FENCED = Object.freeze(new Error('step attempt fenced: its transaction is rolled back'));

/**
 * What the runner keeps of a run: whether this worker may run its steps (docs/decisions/0075, 0076), and its options,
 * parsed once per run in this process (docs/decisions/0133).
 */
interface RunIdentity {
  hostedBy: string | null;
  modelEndpoint: unknown;
  options: RunOptions;
}

/** Runs whose identity the runner keeps: far more than run at once in one process. */
const KNOWN_RUNS = 1_000;

/**
 * Runs one step durably (docs/architecture.md §4). A completed step is never run again; otherwise the handler runs,
 * and its outputs, the execution, a checkpoint, the events and the next steps are committed in one
 * transaction; the next steps are enqueued after the commit.
 */
@Injectable()
export class StepRunner implements StepProcessor {
  private readonly logger = createLogger('step-runner');
  /** Errors this runner recorded on their run (or refused itself), so the step error filter does not record them twice. */
  private readonly recorded = new WeakSet<object>();
  /** Runs seen by this process, newest last (`remember`). */
  private readonly known = new Map<string, RunIdentity>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly executions: ExecutionRepository,
    private readonly commits: StepCommitRepository,
    private readonly events: RunEventRepository,
    private readonly checkpoints: CheckpointRepository,
    private readonly approvals: ApprovalRepository,
    private readonly transitions: TransitionWriter,
    private readonly sender: OutboxSender,
    private readonly leases: StepLeases,
    private readonly failures: RunFailures,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
    @Inject(WORKFLOW_GRAPHS) private readonly workflows: WorkflowGraphs,
  ) {}

  /**
   * Runs one parsed step with the handler's `execute` (called by the message handler `@OnStep` adds, inside the span
   * interceptor and after the job pipe). Every error it throws has been recorded on the run (see `recordUnseen`).
   */
  async run(job: StepJob, control: JobControl, execute: ((ctx: StepContext) => Promise<StepOutcome>) | undefined): Promise<StepRunResult> {
    try {
      return await this.runStep(job, stepKey(job), execute, control);
    } catch (err) {
      this.seen(err);
      throw err;
    }
  }

  async reject(payload: unknown, reason: string): Promise<Error> {
    const ids = PayloadIds.safeParse(payload);
    const err = new InvalidStepPayloadError(`Invalid step job: ${reason}`, ids.success ? { runId: ids.data.runId } : {});
    await this.failRejected(payload, err, reason);
    return this.seen(err);
  }

  async recordUnseen(payload: unknown, err: unknown, control: JobControl): Promise<void> {
    if (typeof err === 'object' && err !== null && this.recorded.has(err)) return;
    const final = classifyError(err) === 'unrecoverable' || control.attempt >= control.maxAttempts;
    const error = describeError(err);
    if (!final) {
      // Before the step started there is no attempt to record: the retry says it all.
      this.logger.warn({ err: error, attempt: control.attempt }, 'step failed before it ran; retrying');
      return;
    }
    await this.failRejected(payload, err, error.message);
  }

  private seen<E>(err: E): E {
    if (typeof err === 'object' && err !== null) this.recorded.add(err);
    return err;
  }

  /** Fails the run a refused payload names (if it names one), with the public form of the error; logs the reason. */
  private async failRejected(payload: unknown, err: unknown, reason: string): Promise<void> {
    const ids = PayloadIds.safeParse(payload);
    if (ids.success) {
      const node = (payload as { node?: unknown }).node;
      const shown = publicError(err);
      const error = describeError(err);
      await this.failures
        .fail(ids.data.tenantId, ids.data.runId, {
          ...(this.workflows.table.has(node) ? { node: node as NodeName } : {}),
          code: shown.code,
          message: shown.message,
          internal: `${error.name}: ${error.message}`,
        })
        .catch((e: unknown) => {
          this.logger.error({ err: describeError(e) }, 'could not record a refused step on its run');
        });
    }
    this.logger.error({ reason, ...(ids.success ? { runId: ids.data.runId } : {}) }, `step refused: ${reason}`);
  }

  private async runStep(
    job: StepJob,
    key: string,
    execute: ((ctx: StepContext) => Promise<StepOutcome>) | undefined,
    control: JobControl,
  ): Promise<StepRunResult> {
    // Not this worker's step (another host's run, another model endpoint's): decided before anything is started.
    const notHere = await this.admit(job, key, control);
    if (notHere) return notHere;
    // A second delivery of a step this process runs waits for it without asking Postgres.
    if (!this.leases.claim(key)) throw this.seen(await control.postpone(this.options.busyRetryMs));
    let attempt: number | undefined;
    let held = false;
    try {
      // One statement: the run (locked, read), and unless it ended, the attempt, the step's lease and step_started.
      const start = await this.executions.start(this.prisma, job, key, this.leases.lease);
      if (!start) {
        held = true;
        throw this.seen(await this.refuseForeign(job, key, control));
      }
      const { run } = start;
      // Each step gets its own copy of the run's parsed options, so no step can change another's. No handler is known to
      // write into them (0139 found none; the gated runs' hang first blamed on the shared, frozen object was the pool
      // ending under queued steps), and the copy is kept as cheap insurance: a plain copy of the parsed JSON, a fraction of
      // structuredClone's serialising round trip (0140).
      const options = copyPlain(this.remember(run).options);
      if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) return { status: 'skipped', reason: `run ${run.status}` };
      if (start.attempt === null) {
        // Completed (maybe by the delivery this one waited for), or a live owner runs it: this delivery comes back later.
        if (await this.executions.isCompleted(job.tenantId, key)) return await this.skipCompleted(job, key);
        held = true;
        throw this.seen(await control.postpone(this.options.busyRetryMs));
      }
      attempt = start.attempt;
      this.leases.started(key, attempt);
      return await this.runAttempt(job, key, run, options, attempt, execute);
    } catch (err) {
      if (!held) await this.onError(job, key, attempt, err, control);
      throw err;
    } finally {
      this.leases.release(key);
    }
  }

  /**
   * Whether this worker may run the step (docs/decisions/0075, 0076): a step of a run hosted by another process is
   * skipped (its host put it on its own queues), and a model step of a run that ran against another model endpoint is
   * left on the queue for a worker configured for it. The first model step records this worker's endpoint on the run.
   */
  private async admit(job: StepJob, key: string, control: JobControl): Promise<StepRunResult | undefined> {
    let run = this.known.get(job.runId);
    if (!run) {
      const row = await this.runs.find(job.tenantId, job.runId);
      // Not in this database: the start statement finds none either and leaves the job on the queue (refuseForeign).
      if (!row) return undefined;
      run = this.remember(row);
    }
    const self = { host: this.options.host ?? null, endpoint: this.options.modelEndpoint ?? null };
    const step = { engine: run.options.engine, callsModel: this.workflows.table.rows[job.node].roles.length > 0 };
    let admission = admitStep(run, step, self);
    if (admission.kind === 'run' && admission.record) {
      // Another worker may have recorded a different one meanwhile: decide again against what the run now holds.
      run = { ...run, modelEndpoint: await this.runs.recordModelEndpoint(job.tenantId, job.runId, admission.record) };
      this.known.set(job.runId, run);
      admission = admitStep(run, step, self);
    }
    if (admission.kind === 'skip') return { status: 'skipped', reason: admission.reason };
    if (admission.kind === 'refuse') {
      this.logger.warn({ runId: job.runId, step: key }, `step ${key} left on the queue for another worker: ${admission.reason}`);
      throw this.seen(await control.postpone(this.options.busyRetryMs));
    }
    return undefined;
  }

  /**
   * What `admit` needs of a run, kept per run from the last start statement that read it (one read of the run the first
   * time this process sees it, none after). A run's host changes only when its old host is gone, and its endpoint once.
   */
  private remember(row: Pick<RunRow, 'id' | 'hostedBy' | 'modelEndpoint' | 'options'>): RunIdentity {
    const identity: RunIdentity = {
      hostedBy: row.hostedBy,
      modelEndpoint: row.modelEndpoint,
      // A run's options do not change after it is created: parsed the first time this process sees the run, not per step
      // (0133), and frozen, since every step of the run in this process is given the same object.
      options: this.known.get(row.id)?.options ?? deepFreeze(RunOptions.parse(row.options)),
    };
    this.known.delete(row.id);
    this.known.set(row.id, identity);
    // Bounded: the oldest entry goes (a Map iterates in insertion order; a re-remembered run moved to the end above).
    if (this.known.size > KNOWN_RUNS) this.known.delete(this.known.keys().next().value!);
    return identity;
  }

  /**
   * A job whose run this database does not have belongs to another deployment that shares the queue prefix (two
   * databases, one Redis, one QUEUE_PREFIX): failing it would lose that deployment's step. It goes back to the queue
   * for a worker of the database that has the run, without using an attempt (docs/decisions/0077).
   */
  private async refuseForeign(job: StepJob, key: string, control: JobControl): Promise<Error> {
    this.logger.warn(
      { runId: job.runId, step: key },
      `step ${key} left on the queue: its run is not in this worker's database (does another database's deployment use the same QUEUE_PREFIX?)`,
    );
    return control.postpone(this.options.busyRetryMs);
  }

  /** The handler, its result checked, and the completing transaction (fenced by `attempt`), then the enqueue. */
  private async runAttempt(
    job: StepJob,
    key: string,
    run: StepRunRow,
    options: RunOptions,
    attempt: number,
    execute: ((ctx: StepContext) => Promise<StepOutcome>) | undefined,
  ): Promise<StepRunResult> {
    // A job of a node the run's graph version does not use fails the run with a typed error, before any work.
    const loop = nodeSpec(this.workflows.get(run.workflowVersion, run.id), job.node, run.id).loop;
    const kind = loop ? 'loop' : this.workflows.table.isFanout(job.node) ? 'fanout' : 'single';
    if (!execute) throw new InvalidStepPayloadError(`No handler for node ${job.node} in this process`, { runId: job.runId });
    const ctx: StepContext = {
      job,
      stepKey: key,
      attempt,
      run: {
        id: run.id,
        tenantId: run.tenantId,
        question: run.question,
        options,
        workflowVersion: run.workflowVersion,
        createdAt: run.createdAt,
        stopReason: run.stopReason,
        budgetExhausted: run.budgetExhausted,
        embeddingsFallback: run.embeddingsFallback,
      },
      tenantId: run.tenantId,
      runId: run.id,
      call: { tenantId: run.tenantId, runId: run.id, stepKey: key },
      rejectionFeedback: (gate?: GateName) => this.rejectionFeedback(job, run.workflowVersion, gate),
    };
    // Every external call the handler makes is recorded against this step, or answered from the replayed run's
    // recording: the boundaries read this scope, the handler never sees it (decision 0030).
    const outcome = await withRecordingScope(
      {
        db: this.prisma,
        tenantId: run.tenantId,
        runId: run.id,
        step: stepOfKey(key),
        node: job.node,
        ...(options.replay ? { replay: options.replay } : {}),
        freshSearch: options.freshSearch ?? false,
      },
      () => execute(ctx),
    );
    const result = this.workflows.table.results[job.node].safeParse(outcome.result);
    if (!result.success) {
      throw new InvalidStepResultError(
        `Handler for ${job.node} returned an invalid result: ${result.error.issues.map((i) => `${i.path.join('.') || 'result'}: ${i.message}`).join('; ')}`,
        { runId: job.runId },
      );
    }
    // The engine's own transaction on the driver; the handler's writes and every other Prisma call in it run on the
    // same connection (docs/decisions/0104), so `this.prisma` is the transaction inside `complete`.
    // A fenced attempt (another delivery completed the step, or took it over) rolls its transaction back: the handler's
    // writes were sent behind the locking statement and ran (docs/decisions/0140), and none of them may commit.
    const toSend = await sqlTransaction(
      this.prisma.pool,
      () => this.complete(this.prisma, job, key, run, kind, attempt, result.data as AnyNodeResult, outcome, options),
      { timeoutMs: this.options.txTimeoutMs },
    ).catch((err: unknown) => {
      if (err === FENCED) return null;
      throw err;
    });
    if (toSend === null) {
      const now = await this.executions.find(job.tenantId, key);
      this.logger.warn(
        { runId: job.runId, attempt, current: now?.attempts },
        now && now.attempts !== attempt
          ? `step ${key} attempt ${attempt} was taken over by attempt ${now.attempts}; its outputs are discarded`
          : `step ${key} was completed by another delivery; the outputs of attempt ${attempt} are discarded`,
      );
      return { status: 'skipped', reason: 'completed by another attempt' };
    }
    await this.sender.send(toSend);
    return { status: 'completed' };
  }

  /**
   * The one transaction of a step: outputs, execution, checkpoint, events, next steps. Throws `FENCED` when this attempt
   * is no longer the step's (another delivery completed it, or took it over after this one's lease lapsed): the
   * transaction is rolled back and nothing is written.
   *
   * Its statements (docs/decisions/0071, 0121): BEGIN; the run locked, the step completed and what the router reads
   * (one); the handler's own writes; the decision written (one: checkpoint, outbox, run, events); COMMIT. Three round
   * trips: BEGIN, the lock and the handler's first write go together, and COMMIT with the decision (0135, 0140).
   */
  private async complete(
    tx: Db,
    job: StepJob,
    key: string,
    started: StepRunRow,
    kind: 'single' | 'fanout' | 'loop',
    attempt: number,
    result: AnyNodeResult,
    outcome: StepOutcome,
    options: RunOptions,
  ): Promise<OutboxRowData[]> {
    // One statement: the run locked, the step completed — fenced: only the step's current attempt completes it (one
    // execution, one set of outputs) — and, when it did, what the router reads, read under the lock (docs/decisions/0121).
    // BEGIN, the locking statement and the handler's first write leave in one socket write (docs/decisions/0140).
    holdWritesThisTurn();
    const locking = this.commits.completeAndRead(
      tx,
      job.tenantId,
      job.runId,
      { stepKey: key, node: job.node, iteration: job.iteration, kind },
      attempt,
      result,
    );
    // The handler's own writes, sent right behind the locking statement without waiting for its answer (pg's pipeline
    // mode): Postgres runs them after it, under the run lock, as before — one round trip fewer (docs/decisions/0140).
    // They write the stage's tables, never the executions or the outbox the router reads, so the read does not see
    // them. If the attempt turns out fenced, the transaction is rolled back, their rows with it (`FENCED`).
    const write = outcome.write;
    const writing = write ? (async () => write(tx))() : undefined;
    // Both answered before anything is thrown: nothing is left unhandled, and the connection is drained.
    const [lockedOutcome, writeOutcome] = await Promise.allSettled([locking, writing]);
    if (lockedOutcome.status === 'rejected') throw lockedOutcome.reason;
    const locked = lockedOutcome.value;
    if (!locked) throw new RunNotFoundError(`Run ${job.runId} disappeared while step ${key} ran`, { runId: job.runId });
    if (!locked.completed) throw FENCED;
    if (writeOutcome.status === 'rejected') throw writeOutcome.reason;
    // What can have changed since the start statement read the run (its status, budget, host), as read under the lock;
    // the rest does not change after the run is created (docs/decisions/0133).
    const run = { ...started, ...locked.run };
    const read = locked.state;

    const graph = this.workflows.get(run.workflowVersion, run.id);
    const parseResult = (r: unknown) => this.workflows.table.results[job.node].parse(r) as AnyNodeResult;
    let shards: { expected: number; results: AnyNodeResult[]; keys: string[] } | undefined;
    let turns: { expected: number; finishedElsewhere: AnyNodeResult[] } | undefined;
    if (read.loop) {
      // A shard has finished its loop when its last decided turn is completed: a turn that continues decides the next
      // one in the transaction that completes it, so this is exact, whatever the budgets did meanwhile (decision 0024).
      const decided = new Map(read.loop.decided.map((d) => [d.shard, d.iteration]));
      const finished = read.loop.latest.filter((l) => l.shard !== job.shard && decided.get(l.shard) === l.iteration);
      turns = { expected: read.loop.expected, finishedElsewhere: finished.map((f) => parseResult(f.result)) };
      shards = {
        expected: read.loop.expected,
        results: [],
        keys: [...finished.map((f) => stepKey({ runId: job.runId, node: job.node, iteration: f.iteration, shard: f.shard })), key],
      };
    } else if (read.fanout) {
      shards = {
        expected: read.fanout.expected,
        results: read.fanout.done.map((d) => parseResult(d.result)),
        keys: read.fanout.done.map((d) => d.stepKey),
      };
    }
    const state = this.transitions.stateFrom(run, options, read.latest);
    const decision = route(graph, state, {
      type: 'step_completed',
      node: job.node,
      iteration: job.iteration,
      shard: job.shard,
      result,
      ...(turns ? { turns } : shards ? { shards: { expected: shards.expected, results: shards.results } } : {}),
    });
    // Read once: this step's trace carrier goes into its checkpoint and into the jobs it decides.
    const trace = injectTraceCarrier();
    // The join: the steps decided when the last shard completes link to the spans of every shard — the others' carriers
    // from their checkpoints, then this step's own (its checkpoint is written below, and is the newest). With tracing
    // off in this process there is no span to link from, and no statement.
    const joined = turns ? decision.steps.some((s) => s.node !== job.node) : decision.steps.length > 0;
    const others = shards?.keys.filter((k) => k !== key) ?? [];
    const links = shards && joined && trace ? [...(await this.checkpoints.traceCarriers(tx, job.tenantId, others)), trace] : undefined;
    const checkpoint = {
      stepKey: key,
      state: {
        node: job.node,
        iteration: job.iteration,
        shard: job.shard,
        result,
        decision,
        ...(trace ? { trace } : {}),
      } as unknown as Prisma.InputJsonValue,
    };
    return this.transitions.apply(
      tx,
      run,
      decision,
      key,
      [{ type: 'step_completed', node: job.node, iteration: job.iteration, shard: job.shard, result: result as Record<string, unknown> }],
      links,
      { trace, checkpoint, options },
    );
  }

  private async skipCompleted(job: StepJob, key: string): Promise<StepRunResult> {
    // Heals a crash between this step's commit and its enqueue, without waiting for the relay.
    await this.sender.sendPendingFrom(job.tenantId, key);
    return { status: 'skipped', reason: 'already completed' };
  }

  private async rejectionFeedback(job: StepJob, workflowVersion: number, explicit?: GateName): Promise<string | null> {
    if (job.iteration === 0) return null;
    const gate = explicit ?? gateReturningTo(this.workflows.get(workflowVersion, job.runId), job.node);
    if (!gate) return null;
    return (await this.approvals.latestRejection(job.tenantId, job.runId, gate))?.feedback ?? null;
  }

  /** Records a failed step: the run fails when the error is final; otherwise the attempt (if one started) and a retry event. */
  private async onError(job: StepJob, key: string, attempt: number | undefined, err: unknown, control: JobControl): Promise<void> {
    const final = classifyError(err) === 'unrecoverable' || control.attempt >= control.maxAttempts;
    // The internal text (redacted) goes to the log line, which carries the run id, and to the step's record; the
    // tenant reads only the public form (a reason code and our own message, never a database error's query text).
    const error = describeError(err);
    const shown = publicError(err);
    this.logger.warn({ err: error, runId: job.runId, attempt: control.attempt, final }, `step ${key} failed`);
    try {
      if (final) {
        await this.failures.fail(job.tenantId, job.runId, {
          node: job.node,
          ...(attempt !== undefined ? { step: { key, attempt } } : {}),
          code: shown.code,
          message: shown.message,
          internal: `${error.name}: ${error.message}`,
        });
      } else {
        await this.prisma.$transaction(async (tx) => {
          if (!(await this.runs.lock(tx, job.tenantId, job.runId))) return;
          if (attempt !== undefined) await this.executions.fail(tx, job.tenantId, key, attempt, `${error.name}: ${error.message}`);
          await this.events.append(tx, job.tenantId, job.runId, [
            {
              type: 'step_retrying',
              node: job.node,
              iteration: job.iteration,
              shard: job.shard,
              attempt: control.attempt,
              error: shown.message,
            },
          ]);
        });
      }
    } catch (recordErr) {
      // Recording failed (Postgres down?): the original error still decides the retry; log both.
      this.logger.error({ err: describeError(recordErr) }, `could not record the failure of step ${key}`);
    }
  }
}

/**
 * A deep copy of parsed JSON (plain objects, arrays, primitives), what zod returns for a run's options; any other object
 * in it goes through structuredClone. A fresh object per step without structuredClone's serialisation (0140).
 */
function copyPlain<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const inner = copyPlain((value as Record<string, unknown>)[key]);
    // A "__proto__" key (JSON allows it) is a property of the copy, as structuredClone makes it, not its prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: inner, enumerable: true, writable: true, configurable: true });
    else copy[key] = inner;
  }
  return copy as T;
}

/** Freezes a parsed value and everything in it (plain objects and arrays: what zod returns for JSON). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
