import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** An outage: every open connection is cut and new ones are refused, until `restore`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a real server (Postgres, Redis) that a test can cut and restore: the service under test
 * sees its dependency go away and come back, while the real server (shared by other tests) is never touched.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => undefined);
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const stop = async (): Promise<void> => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}
