import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadConfig, WorkerEnv } from '@dossier/config';
import { SERVICE_NAMES, type TenantPolicyInput } from '@dossier/contracts';
import { ApiKeyRepository, TenantRepository, type Prisma } from '@dossier/db';
import { ClaimsStagesModule } from '@dossier/stage-claims';
import { ExtractorStagesModule } from '@dossier/stage-extractor';
import { PlannerStagesModule } from '@dossier/stage-planner';
import { RendererStagesModule } from '@dossier/stage-renderer';
import { SearcherStagesModule } from '@dossier/stage-searcher';
import { VerifierStagesModule } from '@dossier/stage-verifier';
import { WriterStagesModule } from '@dossier/stage-writer';
import { createTestDatabase, REPO_ROOT, startChildService, uniquePrefix, type ChildService, type TestDatabase } from '@dossier/testing';
import { VectorsModule } from '@dossier/vectors';
import { createStepMicroservice, engineSettingsFromEnv, WorkflowModule } from '@dossier/workflow';
import { CuttingProxy } from './cutting-proxy';

export const SCREENSHOTS = path.join(REPO_ROOT, 'tmp/screenshots');
export const EXAMPLES = path.join(REPO_ROOT, 'examples/corpus');
export const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

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

export interface WebStack {
  /** Where the browser goes: the proxy in front of the gateway. */
  url: string;
  /** The gateway itself (for the test's own API calls). */
  gatewayUrl: string;
  db: TestDatabase;
  proxy: CuttingProxy;
  browser: Browser;
  workers: INestApplicationContext;
  tenant(name: string, policy?: TenantPolicyInput): Promise<{ id: string; key: string }>;
  key(tenantId: string, principal: string, role: 'member' | 'viewer'): Promise<string>;
  close(): Promise<void>;
}

/**
 * The whole product as a person meets it: the built web app served by a real gateway process
 * (apps/gateway/src/main.ts) over a fresh database, the stage workers and the conductor's relay in this
 * process on the same queues (the offline engine), a cutting proxy in front, and Debian's Chromium.
 */
export async function startWebStack(): Promise<WebStack> {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'tools/build-web.mjs'), '--quiet'], { cwd: REPO_ROOT, stdio: 'inherit' });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const db = await createTestDatabase();
  const queues = uniquePrefix('web');
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  let gateway: ChildService | undefined;
  let workers: INestApplicationContext | undefined;
  let proxy: CuttingProxy | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    await proxy?.close();
    gateway?.kill();
    await gateway?.exited;
    await workers?.close();
    await db.drop();
  };
  try {
    gateway = startChildService(
      path.join(REPO_ROOT, 'apps/gateway/src/main.ts'),
      {
        DATABASE_URL: db.url,
        QUEUE_PREFIX: queues,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SSE_HEARTBEAT_MS: '2000',
        // Its metrics server (default 9464) is not needed here, and a fixed port collides with any other gateway.
        METRICS_PORT: '0',
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
        OTEL_SDK_DISABLED: 'true',
      },
      'gateway',
    );
    const env = loadConfig(WorkerEnv, {
      DATABASE_URL: db.url,
      REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: queues,
      LOG_LEVEL: 'silent',
      STEP_LOCK_MS: '2000',
      STALLED_INTERVAL_MS: '1000',
      STEP_BACKOFF_MS: '100',
    });
    @Module({
      imports: [
        WorkflowModule.forRoot({
          ...engineSettingsFromEnv(env, SERVICE_NAMES),
          conductor: { relayIntervalMs: 200, reconcileIntervalMs: 1_000, relayMinAgeMs: 500, stallWatchIntervalMs: 200 },
        }),
        VectorsModule.forRoot({ dir: mkdtempSync(path.join(tmpdir(), 'dossier-web-vectors-')) }),
        PlannerStagesModule,
        SearcherStagesModule,
        ExtractorStagesModule,
        ClaimsStagesModule,
        WriterStagesModule,
        VerifierStagesModule,
        RendererStagesModule,
      ],
    })
    class WebTestWorkers {}
    workers = (await createStepMicroservice(WebTestWorkers)).app;
    await gateway.waitForOutput(/gateway listening/);
    proxy = new CuttingProxy(gatewayUrl);
    const url = await proxy.start();
    browser = await launchChromium();
    const ctx = workers;
    return {
      url,
      gatewayUrl,
      db,
      proxy,
      browser,
      workers: ctx,
      async tenant(name, policy = {}) {
        const tenant = await ctx.get(TenantRepository).create(name, policy as Prisma.InputJsonValue);
        const { key } = await ctx.get(ApiKeyRepository).create(tenant.id, `${name}-analyst`);
        return { id: tenant.id, key };
      },
      async key(tenantId, principal, role) {
        return (await ctx.get(ApiKeyRepository).create(tenantId, principal, role)).key;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Debian's Chromium, headless, with nothing that would call out of the machine. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A JSON client for the test's own calls to the API. */
export function apiClient(base: string, key: string) {
  return async (method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json };
  };
}

export const SMALL_CORPUS = [
  'encyclopedia-lake-varen.md',
  'krwa-annual-water-report-2024.md',
  'eskerford-university-study-summary.md',
  'timeline-lake-varen-2014-2025.md',
  'kessmark-climate-office-bulletin-2024.md',
  'varen-lake-trust-report-2024.md',
];

export async function uploadCorpus(api: ReturnType<typeof apiClient>, name: string): Promise<void> {
  const created = await api('POST', '/v1/collections', { name });
  for (const file of SMALL_CORPUS) {
    const up = await api('POST', `/v1/collections/${created.json.id}/documents`, {
      filename: file,
      content: readFileSync(path.join(EXAMPLES, file), 'utf8'),
    });
    if (up.status >= 300) throw new Error(`upload ${file}: ${up.status} ${JSON.stringify(up.json)}`);
  }
}

/**
 * A browser tab for one key: watches for anything the CSP refused, any script error and any request that
 * leaves the origin (the app must work air-gapped).
 */
export async function openApp(stack: WebStack, key: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  return openAppAt(stack.browser, stack.url, key);
}

/** openApp for any browser and app URL (a `dossier serve` the test started, for one). */
export async function openAppAt(
  browser: Browser,
  url: string,
  key: string,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
  device: { hasTouch?: boolean; isMobile?: boolean; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, ...device });
  // Generous: the suite shares two cores with everything else CI runs; nothing here measures speed.
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(url).origin;
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (/Content.Security.Policy|Refused to|Trusted ?Type/i.test(msg.text())) problems.push(`CSP: ${msg.text()}`);
  });
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) problems.push(`external request: ${url}`);
  });
  await page.goto(`${url}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Runs' }).waitFor();
  return { context, page, problems };
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (injected over DevTools, not as a page script). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    // Runs in the page (the test program has no DOM library).
    const w = globalThis as any;
    const result = (await w.axe.run(w.document, { resultTypes: ['violations'] })) as { violations: any[] };
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.join(', ')}`);
}

/** The two sizes every screen is checked at: a laptop and a phone (390 × 844, an iPhone 12–15). */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/**
 * What makes the page wider than the window (a phone user would have to scroll sideways): the document's
 * overflow and the first elements reaching past the right edge. Empty when nothing does.
 */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Runs in the page (the test program has no DOM library).
    const d = (globalThis as any).document;
    const width = d.documentElement.clientWidth;
    if (d.documentElement.scrollWidth <= width) return [];
    const describe = (el: any) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`;
    const wide = [...d.querySelectorAll('body *')].filter((el: any) => el.getBoundingClientRect().right > width + 1);
    // The innermost offenders say most: drop any element that only contains another offender.
    const leaves = wide.filter((el: any) => !wide.some((other: any) => other !== el && el.contains(other)));
    return [`page ${d.documentElement.scrollWidth}px wide in a ${width}px window`, ...leaves.slice(0, 5).map(describe)];
  });
}

/**
 * A screenshot for reviewers (tmp/screenshots, not committed) at both sizes, and at each: axe's serious and
 * critical violations and any horizontal overflow. The page is left at the size it had.
 */
export async function capture(page: Page, name: string): Promise<string[]> {
  const before = page.viewportSize();
  const problems: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size.width}.png`), fullPage: label === 'phone' });
    problems.push(...(await seriousViolations(page)).map((v) => `${label}: ${v}`));
    const overflow = await horizontalOverflow(page);
    if (overflow.length > 0) problems.push(`${label}: horizontal overflow: ${overflow.join(', ')}`);
  }
  if (before) await page.setViewportSize(before);
  return problems;
}

export function recordFigure(name: string, value: number): void {
  const file = path.join(SCREENSHOTS, 'figures.json');
  let figures: Record<string, number> = {};
  try {
    figures = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    // first figure of the run
  }
  figures[name] = value;
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
}
