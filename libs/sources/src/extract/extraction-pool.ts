import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ExtractionError } from '../errors';
import type { DocumentFormat, Extraction } from './extraction';
import { EXTRACTION_LIMITS, type ExtractionLimits } from './extract-in-thread';
import type { ExtractionAnswer, ExtractionTask } from './extraction-worker';

const BOOT = path.join(__dirname, 'extraction-worker-boot.cjs');
/** An idle worker is stopped after this long: its heap (PDF.js, a parsed page) is given back. */
const IDLE_MS = 60_000;

interface Pending {
  task: ExtractionTask;
  resolve: (e: Extraction) => void;
  reject: (err: Error) => void;
}

/** One worker thread, one task at a time; stopped on a timeout or crash, started again by the next task. */
class ExtractionThread {
  private worker: Worker | undefined;
  private current: (Pending & { timer: NodeJS.Timeout }) | undefined;
  private idle: NodeJS.Timeout | undefined;
  private onDone: (() => void) | undefined;

  constructor(private readonly limits: ExtractionLimits) {}

  get busy(): boolean {
    return this.current !== undefined;
  }

  run(job: Pending, done: () => void): void {
    if (this.idle) clearTimeout(this.idle);
    const worker = this.ensureWorker();
    const timer = setTimeout(() => {
      this.fail(
        new ExtractionError(
          'too_large',
          `extraction took longer than ${this.limits.timeoutMs} ms (the document is too large or malformed)`,
        ),
      );
    }, this.limits.timeoutMs);
    this.current = { ...job, timer };
    this.onDone = done;
    // Referenced while it works (the caller awaits it), not while idle (it must not hold the process open).
    worker.ref();
    worker.postMessage(job.task, [job.task.bytes.buffer as ArrayBuffer]);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(BOOT, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb, maxYoungGenerationSizeMb: 64 },
      // The worker's stdout/stderr are not the service's log: PDF.js warnings stay inside (read and dropped).
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    // Events of a worker this thread already let go of (stopped after a timeout) concern no task any more.
    worker.on('message', (answer: ExtractionAnswer) => {
      if (this.worker !== worker) return;
      const current = this.current;
      if (!current || current.task.id !== answer.id) return;
      this.settle();
      if (answer.ok) current.resolve({ title: answer.title, text: answer.text, mediaType: answer.mediaType });
      else current.reject(new ExtractionError(answer.reason, answer.message));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(
        outOfMemory
          ? new ExtractionError('too_large', `extraction needs more than ${this.limits.maxHeapMb} MB of memory`)
          : new ExtractionError('extraction_error', `could not extract text: ${err.message}`, { cause: err }),
      );
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.fail(new ExtractionError('extraction_error', 'the extraction worker stopped'));
    });
    this.worker = worker;
    return worker;
  }

  /** The current task fails; its worker (possibly stuck in a parser) is stopped, and a fresh one serves the next task. */
  private fail(err: ExtractionError): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    const current = this.current;
    if (!current) return;
    this.settle();
    current.reject(err);
  }

  private settle(): void {
    if (this.current) clearTimeout(this.current.timer);
    this.current = undefined;
    this.worker?.unref();
    const done = this.onDone;
    this.onDone = undefined;
    this.idle = setTimeout(() => {
      const worker = this.worker;
      this.worker = undefined;
      void worker?.terminate();
    }, IDLE_MS);
    this.idle.unref();
    done?.();
  }
}

/**
 * PDF and HTML extraction off the event loop (issue 30): a parser working through a hostile document (a PDF bomb,
 * megabytes of nested markup) would stall every request of the process, `/healthz` included. Documents go to worker
 * threads, one at a time each, with a heap limit and a wall-time limit; a worker past either is stopped and the
 * document refused as `too_large`. Workers start on first use and stop when idle; they never hold the process open.
 */
export class ExtractionPool {
  private readonly threads: ExtractionThread[];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(
    size = 2,
    private readonly limits: ExtractionLimits = EXTRACTION_LIMITS,
  ) {
    this.threads = Array.from({ length: size }, () => new ExtractionThread(limits));
  }

  extract(format: DocumentFormat, bytes: Uint8Array, name: string): Promise<Extraction> {
    return new Promise<Extraction>((resolve, reject) => {
      // A copy: the caller keeps its bytes, and the copy's buffer moves to the worker without another copy.
      const own = new Uint8Array(bytes);
      this.queue.push({
        task: { id: this.nextId++, format, bytes: own, name, limits: { maxInflatedBytes: this.limits.maxInflatedBytes } },
        resolve,
        reject,
      });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (thread.busy) continue;
      thread.run(this.queue.shift()!, () => this.dispatch());
    }
  }
}

let shared: ExtractionPool | undefined;

/** The process's extraction pool (two workers: the machines this runs on have two cores or more). */
export function extractOffThread(format: DocumentFormat, bytes: Uint8Array, name: string): Promise<Extraction> {
  shared ??= new ExtractionPool();
  return shared.extract(format, bytes, name);
}
