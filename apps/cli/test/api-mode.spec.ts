import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@dossier/config';
import { ReportJson } from '@dossier/contracts';
import { createTestDatabase, REPO_ROOT, startChildService, uniquePrefix, type ChildService, type TestDatabase } from '@dossier/testing';
import { CliEnv } from '../src/cli-env';
import { LocalEngineModule } from '../src/local-engine.module';
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
describe('dossier --api: every command through the gateway', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;
  let gateway: ChildService;
  let workers: INestApplicationContext;
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
        SSE_POLL_MS: '50',
        OTEL_SDK_DISABLED: 'true',
      },
      'gateway',
    );
    await gateway.waitForOutput(/gateway listening/, 60_000);
    const env = loadConfig(CliEnv, {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: queues,
      LOG_LEVEL: 'silent',
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-api-vec-')),
      STEP_LOCK_MS: '2000',
      STALLED_INTERVAL_MS: '1000',
    });
    workers = await NestFactory.createApplicationContext(LocalEngineModule.register(env, true), { logger: false });
    await workers.init();

    const tenant = await cli(['admin', 'create-tenant', 'acme', '--policy', '{"requiredGates":[],"caps":{"maxIterations":2}}']);
    expect(tenant.output).toMatch(/Created tenant acme/);
    const created = await cli(['admin', 'create-key', 'acme', '--name', 'ci']);
    expect(created.code).toBe(0);
    key = /^(dsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43})$/m.exec(created.output)![1]!;
    prefix = key.slice(4, 16);
  }, 120_000);
  afterAll(async () => {
    gateway?.kill();
    await gateway?.exited;
    await workers?.close();
    await db?.drop();
  });

  it('ingest uploads through the gateway, research streams progress over SSE and downloads the three reports', async () => {
    const files = [
      'encyclopedia-lake-varen.md',
      'krwa-annual-water-report-2024.md',
      'eskerford-university-study-summary.md',
      'timeline-lake-varen-2014-2025.md',
      'kessmark-climate-office-bulletin-2024.md',
    ];
    const ingest = await cli([
      '--api',
      url,
      '--key',
      key,
      'ingest',
      ...files.map((f) => path.join(EXAMPLES, 'corpus', f)),
      '--collection',
      'varen',
    ]);
    expect(ingest.output).toMatch(/Uploaded 5 files \(5 new or changed\), 0 failed/);
    expect(ingest.code).toBe(0);

    const research = await cli([
      '--api',
      url,
      '--key',
      key,
      'research',
      "What caused the decline of Lake Varen's water level?",
      '--collection',
      'varen',
      '--perspectives',
      '2',
      '--max-iterations',
      '1',
      '--out',
      out,
    ]);
    expect(research.output).toMatch(/Report written to/);
    expect(research.code).toBe(0);
    expect(research.output).toMatch(/iteration 0 {2}scope/);
    expect(research.output).toMatch(/research stopped after iteration \d/);
    for (const f of ['report.md', 'report.html', 'report.json']) expect(existsSync(path.join(out, f))).toBe(true);
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const runId = /Run ([0-9a-f-]{36}):/.exec(research.output)![1]!;
    expect(report.runId).toBe(runId);

    const runs = await cli(['--api', url, '--key', key, 'runs']);
    expect(runs.output).toContain(`${runId}  completed`);
    const show = await cli(['--api', url, '--key', key, 'show', runId]);
    expect(show.output).toMatch(/status {7}completed/);
    const resume = await cli(['--api', url, '--key', key, 'resume', runId]);
    expect(resume.code).toBe(1);
    expect(resume.output).toMatch(/dossier: Run .* is completed; only a failed or cancelled run can be resumed \(HTTP 409\)/);
    // Interventions go through the gateway too; a finished run refuses them with the gateway's reason.
    const late = await cli(['--api', url, '--key', key, 'intervene', runId, '--add-question', 'What about evaporation?']);
    expect(late.code).toBe(1);
    expect(late.output).toMatch(/HTTP 409/);
  }, 300_000);

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
    const unreachable = await cli(['--api', 'http://127.0.0.1:9', '--key', key, 'runs']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toMatch(/Cannot reach the gateway at http:\/\/127\.0\.0\.1:9/);
  }, 60_000);
});
