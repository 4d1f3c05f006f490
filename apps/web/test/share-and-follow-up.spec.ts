import { StopWaiting, waitFor } from '@dossier/testing';
import { apiClient, capture, openApp, QUESTION, startWebStack, uploadCorpus, VIEWPORTS, type WebStack } from './web-harness';

const SMALL = { collection: 'varen', perspectives: 2, maxIterations: 1 };

/**
 * Issue 27 item 6 in Chromium: a share link opens the report read-only, without signing in, reaching nothing else,
 * and stops working once revoked (decision 0051); a follow-up run starts from the first run's sources (0052); focus
 * stays put after a Drop, and a refused intervention is explained in words (0053).
 */
describe('web app: share links, follow-ups, focus and errors in words (Chromium)', () => {
  let stack: WebStack;
  let acme: { id: string; key: string };
  let api: ReturnType<typeof apiClient>;
  let runId: string;

  const completed = (id: string) =>
    waitFor(`run ${id} to complete`, async () => {
      const run = (await api('GET', `/v1/runs/${id}`)).json;
      if (run.status === 'failed' || run.status === 'cancelled') throw new StopWaiting(`run ${id} ${run.status}: ${run.failureReason}`);
      return run.status === 'completed' ? run : undefined;
    });

  beforeAll(async () => {
    stack = await startWebStack();
    acme = await stack.tenant('acme');
    api = apiClient(stack.gatewayUrl, acme.key);
    await uploadCorpus(api, 'varen');
    runId = (await api('POST', '/v1/runs', { question: QUESTION, options: SMALL })).json.id;
    await completed(runId);
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(async () => {
    for (const context of stack?.browser.contexts() ?? []) await context.close();
  });

  it('a share link opens the report read-only, reaches nothing else, and stops working once revoked', async () => {
    const { page, problems } = await openApp(stack, acme.key);
    await page.goto(`${stack.url}/runs/${runId}/report`);
    await page.getByRole('heading', { level: 1, name: QUESTION }).waitFor();
    await page.getByText('Share a read-only link').click();
    await page.getByLabel('The link works for').selectOption({ label: '1 day' });
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await page.getByLabel('New link (shown only now)').inputValue();
    expect(link).toMatch(new RegExp(`^${stack.url}/shared#dsh_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$`));
    const row = page.locator('tr[data-share]');
    await row.and(page.locator('[data-state="active"]')).waitFor();
    expect(await row.count()).toBe(1);
    expect(await capture(page, '13-report-share-panel')).toEqual([]);

    // Someone else's browser: no key, a fresh profile.
    const guest = await stack.browser.newContext({ viewport: VIEWPORTS.phone, hasTouch: true, isMobile: true });
    const shared = await guest.newPage();
    const asked: string[] = [];
    const sentAuth: string[] = [];
    shared.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/v1/')) asked.push(url.pathname);
      const auth = req.headers()['authorization'];
      if (auth) sentAuth.push(auth.slice(0, 11));
    });
    const guestProblems: string[] = [];
    shared.on('pageerror', (err) => guestProblems.push(err.message));
    await shared.goto(link);
    await shared.getByRole('heading', { level: 1, name: QUESTION }).waitFor();
    await shared.getByText('A shared report: this link works until').waitFor();
    // Read-only: no way into the app, no follow-up, no sharing, no run or audit links.
    for (const name of ['Runs', 'New run', 'Sign out', '← Back to the run', 'Audit log']) {
      expect({ name, count: await shared.getByRole('link', { name, exact: true }).count() }).toEqual({ name, count: 0 });
    }
    expect(await shared.getByText('Ask a follow-up').count()).toBe(0);
    expect(await shared.getByText('Share a read-only link').count()).toBe(0);
    // A tap on a citation opens the source viewer with the cited passage highlighted, through the link's own route.
    await shared.locator('[data-citation]').first().tap();
    await shared.locator('dialog[open] .source-text mark').first().waitFor();
    expect(await capture(shared, '14-shared-report')).toEqual([]);
    await shared.getByRole('button', { name: 'Close' }).click();
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(asked.filter((p) => !p.startsWith('/v1/shared'))).toEqual([]);
    expect([...new Set(sentAuth)]).toEqual(['Bearer dsh_']);

    // Revoked from the owner's page: the focus goes to the notice (the Revoke button is gone), the row says so.
    await page.getByRole('button', { name: /^Revoke the link dsh_/ }).click();
    await row.and(page.locator('[data-state="revoked"]')).waitFor();
    // The focus moves once the list has reloaded (a frame after the row changes): wait for it rather than race it.
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.className === 'share-status');
    expect(await page.locator('.share-status').textContent()).toMatch(/is revoked: it no longer opens this report/);

    await shared.reload();
    await shared.getByRole('alert').getByText('This share link was revoked').waitFor();
    expect(await shared.locator('[data-citation]').count()).toBe(0);
    await capture(shared, '15-shared-report-revoked');
    expect([...problems, ...guestProblems]).toEqual([]);
    await guest.close();
  });

  it('a follow-up run starts with the first run’s sources', async () => {
    const { page, problems } = await openApp(stack, acme.key);
    await page.goto(`${stack.url}/runs/${runId}/report`);
    await page.getByRole('heading', { level: 1, name: QUESTION }).waitFor();
    const firstSources = (await api('GET', `/v1/runs/${runId}/report.json`)).json.sources as Record<string, { contentHash: string }>;
    const count = Object.keys(firstSources).length;
    await page.getByText('Ask a follow-up').click();
    await page.getByText(`searches this report’s ${count} source`).waitFor();
    await page.getByLabel('Follow-up question').fill('How much did irrigation withdrawals lower Lake Varen?');
    await page.getByRole('button', { name: 'Start the follow-up' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const followUpId = page.url().split('/').at(-1)!;
    expect(followUpId).not.toBe(runId);
    await page.locator('.meta .badge', { hasText: 'Completed' }).waitFor({ timeout: 600_000 });

    const run = (await api('GET', `/v1/runs/${followUpId}`)).json;
    expect(run.options.followUp).toEqual({ of: runId });
    expect(run.options.collection).toBe(`sources of run ${runId}`);
    const report = (await api('GET', `/v1/runs/${followUpId}/report.json`)).json;
    const firstHashes = new Set(Object.values(firstSources).map((s) => s.contentHash));
    const followUpHashes = Object.values(report.sources as Record<string, { contentHash: string }>).map((s) => s.contentHash);
    expect(followUpHashes.length).toBeGreaterThan(0);
    expect(followUpHashes.filter((h) => !firstHashes.has(h))).toEqual([]);

    await page.getByRole('link', { name: 'Open report' }).click();
    await page.getByRole('heading', { level: 1, name: 'How much did irrigation withdrawals lower Lake Varen?' }).waitFor();
    await page.getByRole('link', { name: 'The report this follows up' }).click();
    await page.getByRole('heading', { level: 1, name: QUESTION }).waitFor();
    expect(problems).toEqual([]);
  });

  it('focus stays on the plan after a Drop; a refused intervention is explained in words', async () => {
    const gated = (await api('POST', '/v1/runs', { question: QUESTION, options: { ...SMALL, gates: { plan: 'required' } } })).json.id;
    await waitFor('the plan gate', async () => (await api('GET', `/v1/runs/${gated}`)).json.awaitingGate === 'plan' || undefined);
    const { page, problems } = await openApp(stack, acme.key);
    await page.goto(`${stack.url}/runs/${gated}/gate`);
    await page.getByRole('heading', { level: 1, name: /Review the plan/ }).waitFor();
    const drops = page.getByRole('button', { name: /^Drop question / });
    const before = await drops.count();
    expect(before).toBeGreaterThan(2);
    await drops.last().click();
    expect(await drops.count()).toBe(before - 1);
    // The last question's button is gone: the focus is on the one before it, not on <body>.
    const active = await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') ?? 'body');
    expect(active).toMatch(new RegExp(`^Drop question ${before - 1}: `));

    await page.goto(`${stack.url}/runs/${gated}`);
    await page.getByLabel('Steer the research').selectOption({ label: 'Exclude a domain' });
    await page.getByLabel('Domain (e.g. example.com)').fill('not a domain');
    await page.getByRole('button', { name: 'Send intervention' }).click();
    await page.getByRole('alert').getByText('The domain should be a host name such as example.com.').waitFor();
    expect(await page.getByText('Invalid request body').count()).toBe(0);
    await api('POST', `/v1/runs/${gated}/cancel`, {});
    expect(problems).toEqual([]);
  });
});
