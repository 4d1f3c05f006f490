import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { SERVICE_NAMES } from '@dossier/contracts';
import { RunsModule } from '@dossier/runs';
import { loadConfig } from '@dossier/config';
import { ReportJson } from '@dossier/contracts';
import { createTestDatabase, REPO_ROOT, startChildService, uniquePrefix, type ChildService, type TestDatabase } from '@dossier/testing';
import { CliEnv } from '../src/cli-env';
import { createStepMicroservice, engineSettingsFromEnv, WorkflowModule } from '@dossier/workflow';
import { workerImports } from '../src/local-engine.module';
import { cliRunner, EXAMPLES } from './cli-harness';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * `dossier --api URL --key KEY …` against a real gateway process (apps/gateway/src/main.ts) whose runs are
 * worked by the stage workers hosted in this test process on the same database and queues. The keys come
 * from `dossier admin`.
 */
/** The stage services and the conductor's loops in this test process, as `dossier serve` composes them (0050). */
function deploymentWorkers(env: CliEnv): DynamicModule {
  @Module({})
  class DeploymentWorkers {}
  return {
    module: DeploymentWorkers,
    imports: [
      WorkflowModule.forRoot({
        ...engineSettingsFromEnv(env, SERVICE_NAMES),
        conductor: { relayIntervalMs: 1_000, reconcileIntervalMs: 5_000, relayMinAgeMs: 2_000, stallWatchIntervalMs: 500 },
      }),
      RunsModule,
      ...(workerImports(env) ?? []),
    ],
  };
}

describe('dossier: every command in both transports (local and --api)', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;
  let gateway: ChildService;
  let workers: INestApplicationContext | undefined;
  let starting: Promise<INestApplicationContext> | undefined;
  let url: string;
  let key: string;
  let prefix: string;
  const out = mkdtempSync(path.join(tmpdir(), 'dossier-api-out-'));

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = cliRunner(db);
    const queues = uniquePrefix('cli-api');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    gateway = startChildService(
      path.join(REPO_ROOT, 'apps/gateway/src/main.ts'),
      {
        DATABASE_URL: db.url,
        QUEUE_PREFIX: queues,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        // Its metrics server (default 9464) is not needed here, and a fixed port would collide with other tests.
        METRICS_PORT: '0',
        OTEL_SDK_DISABLED: 'true',
      },
      'gateway',
    );
    await gateway.waitForOutput(/gateway listening/);
    const env = loadConfig(CliEnv, {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: queues,
      LOG_LEVEL: 'silent',
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-api-vec-')),
      STEP_LOCK_MS: '2000',
      STALLED_INTERVAL_MS: '1000',
    });
    // Kept as a promise too: if this hook times out on a loaded machine, afterAll still closes the app it went on to
    // build, whose liveness connection would otherwise retry after jest's teardown and crash the whole jest run.
    // The gateway's runs are worked as in a deployment: every stage and the conductor's loops on the shared prefix,
    // taking any run of the database. LocalEngineModule.register would host only this process's own runs, on queues of
    // its own (decision 0075), and the gateway's runs would wait forever.
    starting = createStepMicroservice(deploymentWorkers(env)).then((m) => m.app);
    workers = await starting;

    const tenant = await cli(['admin', 'create-tenant', 'acme', '--policy', '{"requiredGates":[],"caps":{"maxIterations":2}}']);
    expect(tenant.output).toMatch(/Created tenant acme/);
    const created = await cli(['admin', 'create-key', 'acme', '--name', 'ci']);
    expect(created.code).toBe(0);
    key = /^(dsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43})$/m.exec(created.output)![1]!;
    prefix = key.slice(4, 16);
  }, 300_000);
  afterAll(async () => {
    gateway?.kill();
    await gateway?.exited;
    await (workers ?? (await starting?.catch(() => undefined)))?.close();
    await db?.drop();
  });

  const FILES = [
    'encyclopedia-lake-varen.md',
    'krwa-annual-water-report-2024.md',
    'eskerford-university-study-summary.md',
    'timeline-lake-varen-2014-2025.md',
    'kessmark-climate-office-bulletin-2024.md',
  ];
  /** The same command line, once locally (this tenant, on the database) and once through the gateway. */
  const both = async (args: string[]) => ({
    local: await cli(args, { DOSSIER_TENANT: 'acme' }),
    api: await cli(['--api', url, '--key', key, ...args]),
  });
  const runIds: Record<'local' | 'api', string> = { local: '', api: '' };

  /**
   * One table of cases, each run in both transports with the same expectation: the commands are declared once
   * over a client interface, so a flag or a message cannot drift between local and gateway mode.
   */
  const CASES: { name: string; args: () => string[]; code: number; output: RegExp }[] = [
    {
      name: 'ingest stores the files (or finds them unchanged)',
      args: () => ['ingest', ...FILES.map((f) => path.join(EXAMPLES, 'corpus', f)), '--collection', 'varen'],
      code: 0,
      output: /Ingested \d new, 0 updated, \d unchanged, 0 duplicates, 0 skipped, 0 failed \(5 scanned/,
    },
    { name: 'runs lists the run', args: () => ['runs'], code: 0, output: /completed {10}\d{4}-\d\d-\d\dT/ },
    { name: 'show', args: () => ['show', runIds.local], code: 0, output: /status {7}completed/ },
    { name: 'approve a closed gate', args: () => ['approve', runIds.api, 'plan'], code: 1, output: /Gate plan is not open on run/ },
    {
      name: 'intervene on a finished run',
      args: () => ['intervene', runIds.api, '--add-question', 'What about evaporation?'],
      code: 1,
      output: /interventions apply only to a run that is still researching/,
    },
    {
      name: 'cancel a finished run',
      args: () => ['cancel', runIds.local],
      code: 1,
      output: /only a running or waiting run can be cancelled/,
    },
    {
      name: 'resume a completed run',
      args: () => ['resume', runIds.api],
      code: 1,
      output: /only a failed or cancelled run can be resumed/,
    },
    { name: 'a run id that is not one', args: () => ['show', 'not-a-run'], code: 2, output: /"not-a-run" is not a run id/ },
    {
      name: 'a run of no one',
      args: () => ['show', '00000000-0000-4000-8000-000000000000'],
      code: 1,
      output: /Run 00000000-0000-4000-8000-000000000000 not found/,
    },
    {
      name: 'a bad flag value',
      args: () => ['research', 'q', '--perspectives', '0'],
      code: 2,
      output: /--perspectives must be a whole number ≥ 1, got "0"/,
    },
  ];

  it('research in both transports: progress per step, the same three reports', async () => {
    for (const transport of ['local', 'api'] as const) {
      const dir = path.join(out, transport);
      const args = ['research', "What caused the decline of Lake Varen's water level?", '--collection', 'varen'];
      const opts = ['--perspectives', '2', '--max-iterations', '1', '--out', dir];
      const ingest = await cli(
        transport === 'api'
          ? ['--api', url, '--key', key, 'ingest', ...FILES.map((f) => path.join(EXAMPLES, 'corpus', f)), '--collection', 'varen']
          : ['ingest', ...FILES.map((f) => path.join(EXAMPLES, 'corpus', f)), '--collection', 'varen'],
        { DOSSIER_TENANT: 'acme' },
      );
      expect(ingest.code).toBe(0);
      const research =
        transport === 'api'
          ? await cli(['--api', url, '--key', key, ...args, ...opts])
          : await cli([...args, ...opts], { DOSSIER_TENANT: 'acme' });
      expect(research.output).toMatch(/Report written to/);
      expect(research.code).toBe(0);
      expect(research.output).toMatch(/iteration 0 {2}Scope/);
      expect(research.output).toMatch(/research stopped after iteration \d/);
      for (const f of ['report.md', 'report.html', 'report.json']) expect(existsSync(path.join(dir, f))).toBe(true);
      const report = ReportJson.parse(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')));
      runIds[transport] = /Run ([0-9a-f-]{36}):/.exec(research.output)![1]!;
      expect(report.runId).toBe(runIds[transport]);
    }
    // The same corpus and question give the same report, whichever transport ran it.
    const sections = (t: string) =>
      ReportJson.parse(JSON.parse(readFileSync(path.join(out, t, 'report.json'), 'utf8'))).sections.map((s) => s.title);
    expect(sections('api')).toEqual(sections('local'));
  }, 600_000);

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s: the same in both transports',
    async (_name, c) => {
      const { local, api } = await both(c.args());
      for (const r of [local, api]) {
        expect(r.output).toMatch(c.output);
        expect(r.code).toBe(c.code);
      }
    },
    180_000,
  );

  it('source-text prints the stored text a citation was cut from, in both transports', async () => {
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'local', 'report.json'), 'utf8')));
    // A cited source: its text holds the excerpt at the offsets report.json gives.
    const [, evidence] = Object.entries(report.evidence)[0]!;
    const source = report.sources[evidence.sourceId]!;
    const { local, api } = await both(['source-text', source.contentHash.slice(0, 12)]);
    expect(local.code).toBe(0);
    expect(api.code).toBe(0);
    expect(api.output).toBe(local.output);
    expect(local.output.slice(evidence.start, evidence.end)).toBe(evidence.excerpt);
  }, 120_000);

  it("the tenant's policy applies to CLI runs, and a revoked key is refused at once", async () => {
    const beyond = await cli([
      '--api',
      url,
      '--key',
      key,
      'research',
      'Too many passes?',
      '--collection',
      'varen',
      '--max-iterations',
      '5',
    ]);
    expect(beyond.code).toBe(1);
    expect(beyond.output).toMatch(/maxIterations 5, beyond this tenant's cap of 2 \(HTTP 422\)/);
    const revoke = await cli(['admin', 'revoke-key', prefix]);
    expect(revoke.output).toMatch(new RegExp(`Key ${prefix} revoked`));
    const refused = await cli(['--api', url, '--key', key, 'runs']);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/The API key is not valid .*\(HTTP 401\)/);
  }, 120_000);

  it('usage errors: a bad --api URL, --api without a key, an unknown admin command', async () => {
    expect((await cli(['--api', 'ftp://x', '--key', key, 'runs'])).code).toBe(2);
    const noKey = await cli(['--api', url, 'runs']);
    expect(noKey.code).toBe(2);
    expect(noKey.output).toMatch(/--api needs --key/);
    const bad = await cli(['admin', 'make-coffee', 'x']);
    expect(bad.code).toBe(2);
    const adminThroughApi = await cli(['--api', url, '--key', key, 'admin', 'create-tenant', 'x']);
    expect(adminThroughApi.code).toBe(2);
    expect(adminThroughApi.output).toMatch(/admin create-tenant works on the local database; it is not available with --api/);
    const unreachable = await cli(['--api', 'http://127.0.0.1:9', '--key', key, 'runs']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toMatch(/Cannot reach the gateway at http:\/\/127\.0\.0\.1:9/);
  }, 60_000);
});
