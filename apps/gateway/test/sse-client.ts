export interface SseEvent {
  id: number;
  event: string;
  data: any;
}

/**
 * Reads an SSE stream with fetch. `until` decides, after each event, whether to drop the connection
 * there (simulating a client that goes away mid-run); otherwise reads until the server ends the stream.
 */
export async function readSse(
  url: string,
  key: string,
  opts: { lastEventId?: number; until?: (e: SseEvent, all: SseEvent[]) => boolean; onEvent?: (e: SseEvent) => Promise<void> | void } = {},
): Promise<{ events: SseEvent[]; ended: 'server' | 'client'; status: number; comments: number }> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'text/event-stream',
      ...(opts.lastEventId !== undefined ? { 'last-event-id': String(opts.lastEventId) } : {}),
    },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let comments = 0;
  if (!res.ok || !res.body) return { events, ended: 'server', status: res.status, comments };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { events, ended: 'server', status: res.status, comments };
    buffer += decoder.decode(value, { stream: true });
    let sep: number;
    while ((sep = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, sep);
      buffer = buffer.slice(sep + 2);
      const fields: Record<string, string> = {};
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) {
          comments++;
          continue;
        }
        const i = line.indexOf(':');
        if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1).replace(/^ /, '');
      }
      if (fields['id'] === undefined) continue;
      const e: SseEvent = { id: Number(fields['id']), event: fields['event'] ?? 'message', data: JSON.parse(fields['data'] ?? 'null') };
      events.push(e);
      await opts.onEvent?.(e);
      if (opts.until?.(e, events)) {
        controller.abort();
        await reader.cancel().catch(() => undefined);
        return { events, ended: 'client', status: res.status, comments };
      }
    }
  }
}
