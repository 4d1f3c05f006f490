import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface EventStreamRequest {
  path: string;
  lastEventId: string | undefined;
}

/**
 * A pass-through HTTP proxy between the browser and the gateway that can cut the live SSE connections, as
 * a dropped network would (both sockets destroyed mid-stream). It records every event-stream request with
 * its Last-Event-ID, so a test sees where the client resumed.
 */
export class CuttingProxy {
  readonly eventRequests: EventStreamRequest[] = [];
  private readonly open = new Set<{ path: string; client: ServerResponse; upstream: IncomingMessage }>();
  private server?: Server;

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    const target = new URL(this.target);
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const isEvents = /\/v1\/runs\/[^/]+\/events/.test(req.url ?? '');
      if (isEvents) this.eventRequests.push({ path: req.url ?? '', lastEventId: req.headers['last-event-id'] as string | undefined });
      const upstreamReq = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          if (isEvents) {
            const entry = { path: req.url ?? '', client: res, upstream };
            this.open.add(entry);
            res.on('close', () => this.open.delete(entry));
            // Each SSE frame reaches the browser as soon as the gateway writes it.
            res.flushHeaders();
          }
          upstream.pipe(res);
        },
      );
      upstreamReq.on('error', () => res.destroy());
      req.pipe(upstreamReq);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    return `http://127.0.0.1:${address.port}`;
  }

  /** Drops the open event streams (of one run, or all): the browser sees a network error. Returns how many were cut. */
  cutEventStreams(runId?: string): number {
    let n = 0;
    for (const entry of [...this.open]) {
      if (runId && !entry.path.includes(runId)) continue;
      entry.upstream.destroy();
      entry.client.socket?.destroy();
      this.open.delete(entry);
      n++;
    }
    return n;
  }

  get openEventStreams(): number {
    return this.open.size;
  }

  async close(): Promise<void> {
    this.cutEventStreams();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
