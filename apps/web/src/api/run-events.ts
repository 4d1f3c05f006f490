import type { RunEventData } from './types';
import { ApiError, authHeaders } from './client';

export interface RunEventMessage {
  seq: number;
  at: string;
  data: RunEventData;
}

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'failed';

export interface FollowOptions {
  /** The last seq already shown: the stream resumes after it. */
  after: number;
  onEvent(event: RunEventMessage): void;
  onState(state: StreamState, detail?: string): void;
  /** Asked when the server ended the stream: true if the run is over (stop), false to reconnect. */
  isFinished(): Promise<boolean>;
  signal: AbortSignal;
}

const MAX_BACKOFF_MS = 8_000;

/** Splits an SSE byte stream into frames and hands each complete frame's fields on. */
async function readFrames(body: ReadableStream<Uint8Array>, onFrame: (fields: Map<string, string>) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of frame.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        fields.set(name, fields.has(name) && name === 'data' ? `${fields.get(name)}\n${value}` : value);
      }
      if (fields.size > 0) onFrame(fields);
    }
  }
}

/**
 * Follows a run's durable event log over SSE, read with fetch (the key travels in a header, which
 * EventSource cannot send). When the connection drops it reconnects with `Last-Event-ID` = the last seq
 * received, so the server resumes exactly after it; a seq at or below it is never handed on twice.
 * Returns when the run is over and every event was received, or when the signal aborts.
 */
export async function followRunEvents(runId: string, opts: FollowOptions): Promise<void> {
  let last = opts.after;
  let attempt = 0;
  let retryMs = 1_000;
  while (!opts.signal.aborted) {
    opts.onState(attempt === 0 ? 'connecting' : 'reconnecting');
    try {
      const res = await fetch(`/v1/runs/${runId}/events`, {
        headers: { ...authHeaders(), accept: 'text/event-stream', ...(last > 0 ? { 'last-event-id': String(last) } : {}) },
        cache: 'no-store',
        credentials: 'omit',
        signal: opts.signal,
      });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
        const err = new ApiError(res.status, body.error ?? 'error', body.message ?? res.statusText);
        // The run is gone or the key no longer works: retrying cannot help.
        if (res.status >= 400 && res.status < 500 && res.status !== 429) {
          opts.onState('failed', err.message);
          return;
        }
        throw err;
      }
      opts.onState('live');
      attempt = 0;
      await readFrames(res.body, (fields) => {
        if (fields.has('retry')) retryMs = Math.max(250, Number(fields.get('retry')) || retryMs);
        const id = Number(fields.get('id'));
        if (!fields.has('data') || !Number.isInteger(id) || id <= last) return;
        const payload = JSON.parse(fields.get('data')!) as { seq: number; at: string; data: RunEventData };
        last = id;
        opts.onEvent({ seq: id, at: payload.at, data: payload.data });
      });
      // The server ends the stream when the run is over and everything was sent (or when it shuts down).
      if (await opts.isFinished()) {
        opts.onState('ended');
        return;
      }
    } catch (err) {
      if (opts.signal.aborted) return;
      void err;
    }
    attempt++;
    const wait = Math.min(MAX_BACKOFF_MS, retryMs * 2 ** Math.min(attempt - 1, 3));
    opts.onState('reconnecting');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      opts.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
}
