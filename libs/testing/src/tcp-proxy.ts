import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections turned away since the last `cut` (each one a client trying to reach the server). */
  readonly refused: number;
  /** An outage: every open connection is cut, and each new one is closed as soon as it opens, until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a real server (Postgres, Redis) that a test can cut and restore: the service under test
 * sees its dependency go away and come back, while the real server (shared by other tests) is never touched. The
 * count of connections turned away lets a test wait until a client has really met the outage.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  let refused = 0;
  const server = createServer((client) => {
    client.on('error', () => undefined);
    if (down) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    upstream.on('error', () => undefined);
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const dropAll = (): void => {
    for (const sock of sockets) sock.destroy();
    sockets.clear();
  };
  return {
    port: (server.address() as AddressInfo).port,
    get refused() {
      return refused;
    },
    cut: () => {
      down = true;
      refused = 0;
      dropAll();
    },
    restore: () => {
      down = false;
    },
    close: () => {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
