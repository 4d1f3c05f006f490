import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections turned away since the last `cut` (each one a client trying to reach the server). */
  readonly refused: number;
  /** An outage: every open connection is cut, and each new one is closed as soon as it opens, until `restore`. */
  cut(): void;
  restore(): void;
  /**
   * A network partition: nothing passes either way, but no connection closes, so the server keeps every session (and
   * what a session holds, such as an advisory lock) while the client waits. New connections wait too. Until `heal`.
   */
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of a real server (Postgres, Redis) that a test can cut and restore: the service under test
 * sees its dependency go away and come back, while the real server (shared by other tests) is never touched. The
 * count of connections turned away lets a test wait until a client has really met the outage.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let down = false;
  let partitioned = false;
  let waiting: Socket[] = [];
  let refused = 0;
  const open = (client: Socket): void => {
    if (client.destroyed) return;
    const upstream = connect(targetPort, targetHost);
    upstream.on('error', () => undefined);
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    }
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => {
      pairs.delete(pair);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  };
  const server = createServer((client) => {
    client.on('error', () => undefined);
    if (down) {
      refused++;
      client.destroy();
      return;
    }
    if (partitioned) {
      client.pause();
      waiting.push(client);
      return;
    }
    open(client);
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
    partition: () => {
      partitioned = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    heal: () => {
      partitioned = false;
      for (const { client, upstream } of pairs) {
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
        upstream.resume();
      }
      const held = waiting;
      waiting = [];
      for (const client of held) {
        open(client);
        client.resume();
      }
    },
    close: () => {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
