import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (wins over json). */
  text?: string;
  /** Never answer (for timeouts): the socket is closed when the server stops. */
  hang?: boolean;
}

export interface FakeHttpServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A local HTTP server on 127.0.0.1:<random port> that records every request and answers with `handler`. */
export async function startFakeServer(handler: (req: RecordedRequest, index: number) => Reply | Promise<Reply>): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, requests.length - 1)).then(
        (reply) => {
          if (reply.hang) return;
          const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
          const type = reply.text === undefined ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8';
          res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
          res.end(body);
        },
        (err: unknown) => {
          res.writeHead(599);
          res.end(String(err));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Replies in order for the first requests, then `fallback` for every later one. */
export function scripted(replies: Reply[], fallback: (req: RecordedRequest) => Reply): (req: RecordedRequest, index: number) => Reply {
  return (req, index) => replies[index] ?? fallback(req);
}

/** Asserts a secret appears nowhere in what an error exposes to logs. */
export function exposedText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts = [err.message, String(err), err.stack ?? '', JSON.stringify((err as { details?: unknown }).details ?? {})];
  let cause: unknown = err.cause;
  while (cause instanceof Error) {
    parts.push(cause.message, cause.stack ?? '');
    cause = cause.cause;
  }
  return parts.join('\n');
}
