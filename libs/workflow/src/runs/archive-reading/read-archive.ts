import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { RunArchiveError, RunArchiveTooLargeError } from '@dossier/errors';
import { ARCHIVE_READ_LIMITS } from './archive-limits';
import type { ArchiveAnswer } from './archive-worker';
import type { ArchiveContents } from './unpack-archive';

const BOOT = path.join(__dirname, 'archive-worker-boot.cjs');

/**
 * An archive file's checked contents, read in a worker thread of its own (issue 30): decompression, the bounds check,
 * parsing, the contract and every answer's hash cost a hostile 1 GiB gzip bomb or a 200,000-deep answer nothing on
 * this event loop — `/healthz` and every other request keep answering. The worker has a heap limit and a wall-time
 * limit and is stopped after the one file. Refusals are RunArchiveError (422), or RunArchiveTooLargeError (413)
 * when the file unpacks beyond its cap or needs more than the worker's heap.
 */
export function readArchive(bytes: Uint8Array): Promise<ArchiveContents> {
  const { timeoutMs, maxHeapMb, maxUnpackedBytes } = ARCHIVE_READ_LIMITS;
  return new Promise<ArchiveContents>((resolve, reject) => {
    const worker = new Worker(BOOT, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 64 },
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(new RunArchiveTooLargeError(`Reading the archive took longer than ${timeoutMs} ms; it is too large to import`)),
        ),
      timeoutMs,
    );
    worker.on('message', (answer: ArchiveAnswer) =>
      settle(() => {
        if (answer.ok) return resolve(answer.archive);
        if (answer.reason === 'too_large')
          return reject(new RunArchiveTooLargeError(answer.message, { details: { limit: maxUnpackedBytes } }));
        reject(new RunArchiveError(answer.message, { details: { reason: answer.reason } }));
      }),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new RunArchiveTooLargeError(`The archive needs more than ${maxHeapMb} MB of memory to read; it is too large to import`)
            : err,
        ),
      ),
    );
    worker.on('exit', () => settle(() => reject(new Error('the archive-reading worker stopped before it answered'))));
    const own = new Uint8Array(bytes);
    worker.postMessage(own, [own.buffer]);
  });
}
