import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { RunEventData, TERMINAL_RUN_STATUSES, type RunStatus, type RunView } from '@dossier/contracts';
import type { SequencedEvent } from '@dossier/contracts';
import { GatewayRequestError, type GatewayHttp } from './gateway-http';

function retryable(err: unknown): boolean {
  if (err instanceof GatewayRequestError) return err.status === 429 || err.status >= 500;
  return (err as { code?: string }).code !== 'gateway_error';
}

/** One SSE frame's payload as the gateway writes it; the event itself is validated like every API body. */
const SseFrame = z.object({ seq: z.int(), data: RunEventData });

/**
 * Follows a run's SSE stream to its end, or until `signal` is aborted (the stream is closed and it returns). A
 * dropped connection is reopened with `Last-Event-ID`, so the caller sees every event once, in order, however
 * often the network breaks.
 */
export async function followEvents(
  http: GatewayHttp,
  runId: string,
  onEvent: (e: SequencedEvent) => Promise<void>,
  { maxReconnects = 20, signal }: { maxReconnects?: number; signal?: AbortSignal | undefined } = {},
): Promise<void> {
  let lastId = 0;
  let failures = 0;
  for (;;) {
    if (signal?.aborted) return;
    try {
      const res = await http.request(
        'GET',
        `/v1/runs/${runId}/events`,
        undefined,
        { accept: 'text/event-stream', ...(lastId ? { 'last-event-id': String(lastId) } : {}) },
        signal,
      );
      if (!res.body) return;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          // The gateway ends the stream once the run is over; anything else (a proxy timing out) is a drop.
          const run = await http.json<RunView>('GET', `/v1/runs/${runId}`);
          if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) return;
          break;
        }
        buffer += decoder.decode(value, { stream: true });
        let sep: number;
        while ((sep = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, sep);
          buffer = buffer.slice(sep + 2);
          let id: number | undefined;
          let data: string | undefined;
          for (const line of frame.split('\n')) {
            if (line.startsWith('id: ')) id = Number(line.slice(4));
            else if (line.startsWith('data: ')) data = line.slice(6);
          }
          if (id === undefined || data === undefined || id <= lastId) continue;
          const parsed = SseFrame.parse(JSON.parse(data));
          lastId = id;
          failures = 0;
          await onEvent({ seq: parsed.seq, data: parsed.data });
          if (signal?.aborted) {
            await reader.cancel();
            return;
          }
        }
      }
    } catch (err) {
      if (signal?.aborted) return;
      // Errors the gateway answered with (a 4xx) will not change on retry; a broken connection, a 429 or a 5xx (the
      // gateway restarting, its database briefly away: 503 with Retry-After) may.
      if (!retryable(err) || ++failures > maxReconnects) throw err;
      await sleep(Math.min(5_000, 250 * 2 ** failures));
    }
  }
}
