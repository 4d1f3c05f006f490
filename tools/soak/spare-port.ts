import { createServer } from 'node:net';

/**
 * A TCP port nothing listens on now, below the kernel's ephemeral range (32768+ on Linux): a service that is
 * killed and restarted gets its port back, which an outgoing connection could otherwise have taken meanwhile.
 */
export async function sparePort(taken: Set<number> = new Set()): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port)) continue;
    if (await free(port)) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free port between 20000 and 32000');
}

function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
