import path from 'node:path';

/** The shape of apps/gateway/src/serve/serve-all.ts, which parses its input (a boundary no compiler sees). */
export interface ServeAllModule {
  serveAll(input: {
    port: number;
    host: string;
    metricsPort: number;
    tenant: string;
    newKey: boolean;
    env: Record<string, string | undefined>;
  }): Promise<{
    url: string;
    metricsPort: number | null;
    tenant: { id: string; name: string };
    createdKey: string | null;
    activePrefixes: string[];
    adminKey: string;
    adminKeyGenerated: boolean;
    adminUrl: string;
    close(): Promise<void>;
  }>;
}

/**
 * The gateway app's one-process composition, loaded at run time by path: an app never imports another at build
 * time (the layer rule, docs/decisions/0031), and `serve` needs the gateway's controllers in this process, not a
 * second one (docs/decisions/0050).
 */
export function loadServeAll(): ServeAllModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time load across apps, see above
  return require(path.resolve(__dirname, '../../../gateway/src/serve/serve-all.ts')) as ServeAllModule;
}
