import { parentPort } from 'node:worker_threads';
import { ExtractionError } from '../errors';
import type { DocumentFormat } from './extraction';
import { extractInThread, type ExtractionLimits } from './extract-in-thread';

/** A task the pool posts to an extraction worker (extraction-pool.ts). */
export interface ExtractionTask {
  id: number;
  format: DocumentFormat;
  bytes: Uint8Array;
  name: string;
  limits: Pick<ExtractionLimits, 'maxInflatedBytes'>;
}

/** What the worker answers: the extraction, or the failure as data (an error object does not cross threads whole). */
export type ExtractionAnswer =
  | { id: number; ok: true; title: string; text: string; mediaType: string }
  | { id: number; ok: false; reason: ExtractionError['reason'] | 'extraction_error'; message: string };

// The worker's main: one task at a time, as the pool sends them.
parentPort?.on('message', (task: ExtractionTask) => {
  void extractInThread(task.format, task.bytes, task.name, task.limits).then(
    (extraction) => parentPort!.postMessage({ id: task.id, ok: true, ...extraction } satisfies ExtractionAnswer),
    (err: unknown) => {
      const answer: ExtractionAnswer =
        err instanceof ExtractionError
          ? { id: task.id, ok: false, reason: err.reason, message: err.message }
          : {
              id: task.id,
              ok: false,
              reason: 'extraction_error',
              message: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
            };
      parentPort!.postMessage(answer);
    },
  );
});
