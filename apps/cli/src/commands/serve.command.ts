import { loadConfig, opsPortFor, environment } from '@dossier/config';
import { CliUsageError } from '../cli-error';
import { CliEnv } from '../cli-env';
import { defineCommand } from '../framework/command-spec';
import { loadServeAll } from '../serve/load-serve-all';
import { prepareMachine } from '../serve/prepare-machine';
import { startCliTelemetry } from '../tracing';

function port(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new CliUsageError(`--${flag} must be a port number 0–65535, got "${value}"`);
    return n;
  };
}

interface ServeFlags {
  port: number;
  host: string;
  metricsPort?: number;
  newKey?: boolean;
}

export const serveCommand = defineCommand<ServeFlags>({
  name: 'serve',
  description: 'The web app, the API and every stage worker in this one process; prints the URL and a key to sign in',
  transports: ['local'],
  options: [
    { flags: '--port <n>', description: 'the web app and API port (0: any free port)', default: 8080, parse: port('port') },
    { flags: '--host <address>', description: 'the address to listen on (0.0.0.0: every interface)', default: '127.0.0.1' },
    {
      flags: '--metrics-port <n>',
      description: "this process's /metrics, /healthz and /readyz (default METRICS_PORT, else 9464, the gateway's; 0: none)",
      parse: port('metrics-port'),
    },
    { flags: '--new-key', description: 'create another key for the local user (the first start creates one)' },
  ],
  help: [
    'Runs on DATABASE_URL and REDIS_URL (the local servers by default: found, or started as npm run demo does),',
    'as the tenant DOSSIER_TENANT ("local"): documents added with `dossier ingest` are in the web app.',
    'Engines and search providers are the ones configured in this environment (OPENAI_*, TAVILY_API_KEY, …).',
    '',
    'Examples:',
    '  dossier serve',
    '  dossier serve --port 3000 --metrics-port 0',
  ].join('\n'),
  async run({ opts, out }) {
    const env = loadConfig(CliEnv);
    const started = Date.now();
    // The printed URL and keys are what the person reads on stdout; the services' logs go to stderr at LOG_LEVEL
    // when it is set, otherwise at info to .dossier/dossier.log (tracing.ts).
    environment()['LOG_LEVEL'] = env.LOG_LEVEL;
    out.line('Checking Redis and Postgres, migrations and the web app build…');
    await prepareMachine(env);
    // Before the gateway and the stages load pg, ioredis and http: instrumentation patches them on load.
    startCliTelemetry();
    const stack = await loadServeAll().serveAll({
      port: opts.port,
      host: opts.host,
      // One process hosts every service: it takes the gateway's ops port unless told otherwise (decision 0060).
      metricsPort: opts.metricsPort ?? opsPortFor('gateway', env.METRICS_PORT),
      tenant: env.DOSSIER_TENANT,
      newKey: opts.newKey ?? false,
      env: {
        ...environment(),
        DATABASE_URL: env.DATABASE_URL,
        REDIS_URL: env.REDIS_URL,
        QUEUE_PREFIX: env.QUEUE_PREFIX,
        VECTOR_DIR: env.VECTOR_DIR,
        LOG_LEVEL: env.LOG_LEVEL,
      },
    });
    out.line('');
    out.line(`Dossier is running at ${stack.url}  (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    out.line(`  Tenant: ${stack.tenant.name} (the tenant of \`dossier ingest\` on this machine)`);
    if (stack.createdKey) {
      out.line(`  Sign in with this key. It is shown only now (only its hash is stored); keep it:`);
      out.line(`    ${stack.createdKey}`);
    } else {
      out.line(
        `  Sign in with the key printed at the first start (${stack.activePrefixes.map((p) => `dsk_${p}_…`).join(', ')}); ` +
          'lost it? dossier serve --new-key',
      );
    }
    out.line(
      `  Queue dashboard: ${stack.adminUrl}  admin key${stack.adminKeyGenerated ? ' (this start only; set ADMIN_API_KEY to keep one)' : ' (ADMIN_API_KEY)'}:`,
    );
    out.line(`    ${stack.adminKey}`);
    if (stack.metricsPort) out.line(`  Metrics: http://127.0.0.1:${stack.metricsPort}/metrics`);
    out.line('Stop with Ctrl-C.');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    out.line('Stopping: letting running steps finish…');
    await stack.close();
    return 0;
  },
});
