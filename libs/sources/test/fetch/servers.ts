import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';

/**
 * A "guard" listener: any TCP connection it receives is a connection the SSRF guard should have prevented.
 * It counts connections and drops them.
 */
export interface Guard {
  host: string;
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startGuard(host: string, port = 0): Promise<Guard | null> {
  let count = 0;
  const server = createTcpServer((socket) => {
    count++;
    socket.destroy();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (err) {
    // No IPv6 loopback on this machine (or the port is taken): the caller skips what needs this guard.
    if (['EADDRNOTAVAIL', 'EAFNOSUPPORT', 'EADDRINUSE'].includes((err as { code?: string }).code ?? '')) return null;
    throw err;
  }
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('guard has no TCP address');
  return {
    host,
    port: address.port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface RecordedRequest {
  url: string;
  host: string | undefined;
  userAgent: string | undefined;
  remoteAddress: string | undefined;
}

export interface TestServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records every request; `close` also cuts connections left hanging. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    requests.push({
      url: req.url ?? '',
      host: req.headers.host,
      userAgent: req.headers['user-agent'],
      remoteAddress: req.socket.remoteAddress,
    });
    // A client that stops reading mid-body (the size cap) makes later writes fail: expected here.
    res.on('error', () => undefined);
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  return {
    port: address.port,
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes `total` bytes of `fill` in 64 KB chunks, respecting back-pressure, stopping if the client leaves. */
export function streamBytes(res: ServerResponse, total: number, fill = 0x61): void {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      if (res.destroyed) return;
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}
