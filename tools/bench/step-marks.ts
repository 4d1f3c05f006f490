/**
 * When each step of the step bench (step-overhead.ts) passed each point of the engine's path, by step key: the
 * transport handing it over, its round trips (the start statement, the locking statement, the transition with COMMIT,
 * the enqueue) and the work between them. The engine runs in the bench's process, so wrapping the prototypes these go
 * through sees every step without changing the engine. From the marks come the bench's intervals (dequeue → next
 * enqueued, dequeue → next dequeued) and where a step's time goes between them (`segmentFigures`).
 */
import { stepKey, type StepRef } from '@dossier/contracts';
import { ExecutionRepository, StepCommitRepository, type StepToComplete, type TransitionWrite } from '@dossier/db';
import { BullMqServer, StepQueues } from '@dossier/queue';
import { OutboxSender } from '@dossier/workflow';
import type { Job } from 'bullmq';
import { micros } from './hop-marks';
import { percentiles, type SegmentFigures } from './step-report';

/**
 * The points after the transport's hand-over, in the order a step passes them, each with the segment that ends there.
 * A step's segments add up to its dequeue → first decided step enqueued interval.
 */
export const SEGMENTS = [
  { mark: 'startSent', segment: 'to the start statement: Nest pipeline, job checked, admission' },
  { mark: 'startAnswered', segment: 'start statement (a pooled connection; run locked, attempt and lease, step_started)' },
  { mark: 'lockSent', segment: "the handler (empty), its result checked, the transaction's connection" },
  { mark: 'lockAnswered', segment: "BEGIN, run locked, step completed, the router's read, the handler's write" },
  { mark: 'transitionSent', segment: 'routing and the decision built' },
  { mark: 'enqueueSent', segment: 'transition and COMMIT' },
  { mark: 'enqueueAnswered', segment: 'the decided steps enqueued' },
] as const;
type Mark = 'handed' | (typeof SEGMENTS)[number]['mark'];

/** One step's marks (µs on the process's monotonic clock) and its kind, as the completion named it. */
interface StepPoints {
  at: Partial<Record<Mark, number>>;
  kind?: StepToComplete['kind'];
}

export class StepMarks {
  /** When each step was first enqueued (Redis acknowledged it). */
  readonly enqueued = new Map<string, number>();
  private readonly points = new Map<string, StepPoints>();

  /** When the transport handed the step over (its first delivery). */
  startedAt(key: string): number | undefined {
    return this.points.get(key)?.at.handed;
  }

  /** Records `mark` for `key` the first time it is passed: a second delivery or attempt does not move it. */
  mark(key: string, mark: Mark, kind?: StepToComplete['kind']): void {
    let p = this.points.get(key);
    if (!p) this.points.set(key, (p = { at: {} }));
    p.at[mark] ??= micros();
    if (kind) p.kind ??= kind;
  }

  /**
   * Each segment's p50 and p90 over `keys` (steps that decided a next step), by kind: single steps, and the shards of
   * fan-outs and shard loops, which wait for each other on the run row. Steps missing a mark are left out.
   */
  segmentFigures(keys: readonly string[]): SegmentFigures[] {
    const byKind = new Map<SegmentFigures['kind'], number[][]>();
    for (const key of keys) {
      const p = this.points.get(key);
      if (!p?.kind) continue;
      const times = [p.at.handed, ...SEGMENTS.map((s) => p.at[s.mark])];
      if (times.some((t) => t === undefined)) continue;
      const parts = SEGMENTS.map((_, i) => times[i + 1]! - times[i]!);
      const kind = p.kind === 'single' ? 'single' : 'shard';
      byKind.set(kind, [...(byKind.get(kind) ?? []), parts]);
    }
    return [...byKind].map(([kind, steps]) => ({
      kind,
      n: steps.length,
      parts: SEGMENTS.map(({ segment }, i) => {
        const { p50, p90 } = percentiles(steps.map((parts) => parts[i]!));
        return { segment, p50, p90 };
      }),
    }));
  }
}

/** Wraps the prototypes of the engine's path so that `marks` records every step of this process. */
export function instrumentEngine(): StepMarks {
  const marks = new StepMarks();
  const wrap = <A extends unknown[], R>(
    proto: object,
    method: string,
    key: (...args: A) => string | undefined,
    before: Mark,
    after?: Mark,
    kind?: (...args: A) => StepToComplete['kind'],
  ) => {
    const target = proto as Record<string, (...args: A) => Promise<R>>;
    const original = target[method];
    // A method renamed or moved: said at once, not found later as steps missing from the segments.
    if (typeof original !== 'function') throw new Error(`step-marks: ${method} is no longer on the engine's path it wraps`);
    target[method] = async function (this: unknown, ...args: A) {
      const k = key(...args);
      if (k !== undefined) marks.mark(k, before, kind?.(...args));
      const value = await original.apply(this, args);
      if (k !== undefined && after) marks.mark(k, after);
      return value;
    };
  };
  // The transport's entry (private, reached through the prototype): the Nest pipeline and the runner are both inside.
  wrap(BullMqServer.prototype, 'handleJob', (job: Job) => stepKey(job.data as StepRef), 'handed');
  // Keyed by the steps enqueued, not by the step that decided them: the bench's intervals end there.
  const enqueueMany = StepQueues.prototype.enqueueMany;
  StepQueues.prototype.enqueueMany = async function (this: StepQueues, jobs) {
    await enqueueMany.call(this, jobs);
    const t = micros();
    for (const job of jobs) if (!marks.enqueued.has(stepKey(job))) marks.enqueued.set(stepKey(job), t);
  };
  wrap(ExecutionRepository.prototype, 'start', (_db: unknown, _job: unknown, key: string) => key, 'startSent', 'startAnswered');
  wrap(
    StepCommitRepository.prototype,
    'completeAndRead',
    (_tx: unknown, _tenant: string, _run: string, step: StepToComplete) => step.stepKey,
    'lockSent',
    'lockAnswered',
    (_tx: unknown, _tenant: string, _run: string, step: StepToComplete) => step.kind,
  );
  // A step's transition is caused by its key; a run's start or a gate's decision by something else, never measured.
  wrap(StepCommitRepository.prototype, 'writeTransition', (_tx: unknown, w: TransitionWrite) => w.causeKey, 'transitionSent');
  // After the commit: what the step decided goes out (a step that decided nothing sends no rows and has no key here).
  wrap(OutboxSender.prototype, 'send', (rows: readonly { causeKey: string }[]) => rows[0]?.causeKey, 'enqueueSent', 'enqueueAnswered');
  return marks;
}
