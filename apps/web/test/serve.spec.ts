import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import {
  createTestDatabase,
  REPO_ROOT,
  sql,
  startChildService,
  uniquePrefix,
  type ChildService,
  type TestDatabase,
} from '@dossier/testing';
import { EXAMPLES, launchChromium, openAppAt, QUESTION, recordFigure, SCREENSHOTS, seriousViolations } from './web-harness';

const CLI = path.join(REPO_ROOT, 'apps/cli/src/main.ts');
const KEY = /dsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/g;

/**
 * `dossier serve` as a person starts it: the CLI's own process (gateway, web app, conductor and every stage
 * worker in it) on a fresh database, with documents added beforehand by `dossier ingest` on the same machine.
 * The URL and key it prints are all the browser is given.
 */
describe('dossier serve (the whole stack in one process)', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let serve: ChildService | undefined;
  let browser: Browser | undefined;
  let firstKey = '';

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'tools/build-web.mjs'), '--quiet'], { cwd: REPO_ROOT, stdio: 'inherit' });
    mkdirSync(SCREENSHOTS, { recursive: true });
    db = await createTestDatabase();
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: uniquePrefix('serve'),
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-serve-vectors-')),
      OTEL_SDK_DISABLED: 'true',
      LOG_LEVEL: 'warn',
    };
    const ingest = startChildService(CLI, env, 'dossier ingest', ['ingest', EXAMPLES, '--collection', 'examples']);
    expect((await ingest.exited).code).toBe(0);
    expect(ingest.output()).toMatch(/Ingested \d+ new/);
  }, 600_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    serve?.kill();
    await serve?.exited;
    await db?.drop();
  });

  function start(): ChildService {
    return startChildService(CLI, env, 'dossier serve', ['serve', '--port', '0', '--metrics-port', '0']);
  }

  it('prints a URL and a key that sign in; a run over the example corpus completes and its report opens', async () => {
    const startedAt = Date.now();
    serve = start();
    await serve.waitForOutput(/Stop with Ctrl-C/);
    const out = serve.output();
    const url = /Dossier is running at (http:\/\/\S+)/.exec(out)![1]!;
    const keys = out.match(KEY) ?? [];
    expect(keys).toHaveLength(1);
    firstKey = keys[0]!;
    const adminKey = /admin key[^\n]*:\n\s+(\S+)/.exec(out)![1]!;

    browser = await launchChromium();
    const { page, problems, context } = await openAppAt(browser, url, firstKey);
    // From the command to the first page a person can use (a figure for the closing note, not an assertion).
    recordFigure('serveToFirstPageMs', Date.now() - startedAt);
    expect(await seriousViolations(page)).toEqual([]);

    // The tenant is the CLI's: the collection `dossier ingest` made is offered.
    await page.getByRole('link', { name: 'New run' }).first().click();
    await page.getByLabel('Research question').fill(QUESTION);
    await page.getByRole('option', { name: /^examples \(\d+ documents\)$/ }).waitFor({ state: 'attached' });
    await page.getByLabel('Collection', { exact: true }).selectOption('examples');
    await page.getByLabel('Analysts', { exact: true }).fill('2');
    await page.getByLabel('Research iterations', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await page.locator('.meta .badge', { hasText: 'Completed' }).waitFor({ timeout: 900_000 });
    await page.getByRole('link', { name: 'Open report' }).click();
    await page.locator('.report-section.kind-body [data-citation]').first().waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'serve-report.png') });
    expect(problems).toEqual([]);
    await context.close();

    // The key is stored as a hash only; the admin key opens the queue dashboard, nothing else does.
    const prefix = firstKey.split('_')[1]!;
    const [row] = await sql<{ secret_hash: string; name: string }>(
      db.url,
      `SELECT k.secret_hash, t.name FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.prefix = $1`,
      [prefix],
    );
    expect(row!.name).toBe('local');
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(firstKey).not.toContain(row!.secret_hash);
    expect((await fetch(`${url}/admin/queues`, { headers: { authorization: `Bearer ${adminKey}` } })).status).toBe(200);
    expect((await fetch(`${url}/admin/queues`, { headers: { authorization: `Bearer ${firstKey}` } })).status).toBe(401);
  }, 1_200_000);

  it('a second start shows no key (a key is shown once) and the first one still signs in', async () => {
    serve!.kill('SIGINT');
    expect((await serve!.exited).code).toBe(0);
    serve = start();
    await serve.waitForOutput(/Stop with Ctrl-C/);
    const out = serve.output();
    expect(out.match(KEY)).toBeNull();
    expect(out).toContain(`dsk_${firstKey.split('_')[1]}_…`);
    const url = /Dossier is running at (http:\/\/\S+)/.exec(out)![1]!;
    const me = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${firstKey}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { tenant: { name: string } }).tenant.name).toBe('local');
  }, 600_000);
});
