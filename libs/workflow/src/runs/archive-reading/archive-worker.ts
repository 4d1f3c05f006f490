import { parentPort } from 'node:worker_threads';
import { ArchiveRefusal, unpackArchiveWithin, type ArchiveContents } from './unpack-archive';

/** What the worker answers: the checked archive, or why it was refused (an error object does not cross threads whole). */
export type ArchiveAnswer =
  { ok: true; archive: ArchiveContents } | { ok: false; reason: ArchiveRefusal['reason'] | 'failed'; message: string };

// The worker's main: reads the one file it is sent, answers, and is then stopped by read-archive.ts.
parentPort?.once('message', (bytes: Uint8Array) => {
  void unpackArchiveWithin(bytes).then(
    (archive) => parentPort!.postMessage({ ok: true, archive } satisfies ArchiveAnswer),
    (err: unknown) =>
      parentPort!.postMessage(
        (err instanceof ArchiveRefusal
          ? { ok: false, reason: err.reason, message: err.message }
          : { ok: false, reason: 'failed', message: err instanceof Error ? err.message : String(err) }) satisfies ArchiveAnswer,
      ),
  );
});
