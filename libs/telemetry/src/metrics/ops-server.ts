import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, register } from 'prom-client';

export interface OpsServerOptions {
  port: number;
  host?: string;
  /** Ready for work: booted, consuming, not shutting down. Probes route traffic and rollouts by it. */
  ready: () => boolean;
}

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

let defaultsCollected = false;

/**
 * The small HTTP server every worker process and the gateway expose, apart from any public port:
 * /metrics (the default prom-client registry), /healthz (the process answers), /readyz (ready()).
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  if (!defaultsCollected) {
    collectDefaultMetrics();
    defaultsCollected = true;
  }
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    switch (path) {
      case '/healthz':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
        return;
      case '/readyz': {
        const ready = options.ready();
        res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ready\n' : 'not ready\n');
        return;
      }
      case '/metrics':
        register.metrics().then(
          (body) => res.writeHead(200, { 'content-type': register.contentType }).end(body),
          (err: unknown) =>
            res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics collection failed: ${(err as Error).message}\n`),
        );
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
