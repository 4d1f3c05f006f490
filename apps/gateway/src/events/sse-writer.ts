import type { ServerResponse } from 'node:http';

/** Writes Server-Sent Events frames on a raw response (the reply is hijacked from Fastify). */
export class SseWriter {
  private closed = false;

  constructor(private readonly res: ServerResponse) {
    res.on('close', () => {
      this.closed = true;
    });
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  open(retryMs: number): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies buffer responses unless told not to; SSE must flow as written.
      'x-accel-buffering': 'no',
    });
    this.res.write(`retry: ${retryMs}\n\n`);
  }

  event(id: number, type: string, data: unknown): void {
    // JSON never contains a raw newline, so one data line carries the whole payload.
    this.res.write(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  comment(text: string): void {
    this.res.write(`: ${text}\n\n`);
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end();
    this.closed = true;
  }
}
