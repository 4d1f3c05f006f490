import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PrismaService } from '@dossier/db';
import { sql, waitFor } from '@dossier/testing';
import {
  apiClient,
  capture,
  EXAMPLES,
  horizontalOverflow,
  openApp,
  openAppAt,
  QUESTION,
  recordFigure,
  SCREENSHOTS,
  startWebStack,
  uploadCorpus,
  VIEWPORTS,
  type WebStack,
} from './web-harness';
import { sourceMeta } from '../src/ui/format';

/**
 * The web app in a real headless Chromium against a real gateway, workers and the offline engine: every
 * screen as a person uses it, each screenshotted (tmp/screenshots) and checked with axe-core.
 */
describe('web app (Chromium against the gateway, the workers and the offline engine)', () => {
  let stack: WebStack;
  let acme: { id: string; key: string };
  let api: ReturnType<typeof apiClient>;
  const a11y: Record<string, string[]> = {};
  const runs: { gated?: string; completed?: string } = {};

  beforeAll(async () => {
    stack = await startWebStack();
    acme = await stack.tenant('acme', { caps: { maxIterations: 3, tokens: 400_000 } });
    api = apiClient(stack.gatewayUrl, acme.key);
    await uploadCorpus(api, 'varen');
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });
  // A failed test leaves its tabs open (and their event streams): close them before the next test.
  afterEach(async () => {
    for (const context of stack?.browser.contexts() ?? []) await context.close();
  });

  async function check(page: Page, name: string): Promise<void> {
    a11y[name] = await capture(page, name);
  }

  /** Fills the new-run form: a small offline run over the collection. */
  async function startFromForm(page: Page, question: string, gates: ('plan' | 'outline')[] = []): Promise<string> {
    await page.getByRole('link', { name: 'New run' }).first().click();
    await page.getByLabel('Research question').fill(question);
    await page.getByLabel('Collection', { exact: true }).selectOption('varen');
    await page.getByLabel('Analysts', { exact: true }).fill('2');
    await page.getByLabel('Research iterations', { exact: true }).fill('1');
    for (const gate of gates) await page.getByRole('checkbox', { name: new RegExp(`^${gate} gate`, 'i') }).check();
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    return page.url().split('/').at(-1)!;
  }

  /** The first highlighted passage of the open source viewer is on screen (inside its scrolled text and the window). */
  async function markInView(page: Page): Promise<boolean> {
    return page.evaluate(() => {
      // Runs in the page (the test program has no DOM library).
      const d = (globalThis as any).document;
      const mark = d.querySelector('dialog[open] .source-text mark');
      const box = d.querySelector('dialog[open] .source-text').getBoundingClientRect();
      const m = mark.getBoundingClientRect();
      const h = (globalThis as any).innerHeight;
      return m.top >= Math.max(0, box.top) - 1 && m.top < Math.min(h, box.bottom);
    });
  }

  async function waitForStatus(page: Page, label: string): Promise<void> {
    await page.locator('.meta .badge', { hasText: label }).waitFor({ timeout: 600_000 });
  }

  it('signs in, starts a run from the form, watches it complete, opens the report and shows a citation’s exact excerpt', async () => {
    const { page, problems, context } = await openApp(stack, acme.key);
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    await page.getByRole('link', { name: 'New run' }).first().click();
    await page.getByLabel('Research question').waitFor();
    await page.getByText('Your tenant’s cap: 400,000.').waitFor();
    // Only what this gateway is configured for is offered (it has no model endpoint and no web search key).
    expect(await page.getByLabel('Engine', { exact: true }).locator('option').allTextContents()).toEqual([
      'Offline (no model, no network)',
    ]);
    expect(await page.getByRole('group', { name: 'Where to search' }).getByRole('checkbox').count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Private collection' }).isChecked()).toBe(true);
    await page.getByText(/Not configured on this server \(4\)/).click();
    await page.getByText(/OpenAI-compatible model: .*OPENAI_BASE_URL/).waitFor();
    await check(page, '02-new-run');
    await page.getByRole('link', { name: 'Runs', exact: true }).click();

    const runId = await startFromForm(page, QUESTION);
    await page.locator('[data-step]').first().waitFor();
    await check(page, '03-live-run');
    await waitForStatus(page, 'Completed');
    await page.locator('[data-stream-state="ended"]').waitFor();
    expect(await page.locator('[data-milestone="run_completed"]').count()).toBe(1);
    // Counters come from the run view: sources, evidence, claims.
    expect(Number(await page.locator('[data-counter="evidence"]').textContent())).toBeGreaterThan(0);
    runs.completed = runId;

    // Time from a page load to the first step shown (a figure for the closing note, not an assertion).
    await page.reload();
    await page.locator('[data-step]').first().waitFor();
    const firstStepMs = await page.evaluate(async () => {
      for (let i = 0; i < 50 && performance.getEntriesByName('dossier:first-step-shown').length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      return performance.getEntriesByName('dossier:first-step-shown')[0]?.startTime ?? -1;
    });
    recordFigure('pageLoadToFirstStepMs', Math.round(firstStepMs));

    await page.getByRole('link', { name: 'Open report' }).click();
    await page.locator('[data-citation]').first().waitFor();
    await check(page, '05-report');
    const cite = page.locator('.report-section.kind-body [data-citation]').first();
    await cite.hover();
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor();
    expect(await cite.getAttribute('aria-describedby')).toBe(await tooltip.getAttribute('id'));
    const excerpt = tooltip.locator('.excerpt').first();
    const shown = (await excerpt.textContent())!;
    const evidenceId = (await excerpt.getAttribute('data-evidence'))!;
    // The excerpt shown is exactly the stored snapshot's text between the evidence offsets.
    const report = (await api('GET', `/v1/runs/${runId}/report.json`)).json;
    const evidence = report.evidence[evidenceId];
    const source = report.sources[evidence.sourceId];
    const [snapshot] = await sql<{ text: string }>(
      stack.db.url,
      'SELECT text FROM source_snapshots WHERE tenant_id = $1 AND content_hash = $2',
      [acme.id, source.contentHash],
    );
    expect(shown).toBe(snapshot!.text.slice(evidence.start, evidence.end));
    expect(await tooltip.textContent()).toContain(source.title);
    // The tooltip's provenance line is the one the report page uses (origin · authority · fetched),
    // without an authority the sources did not name.
    expect(await tooltip.textContent()).toContain(sourceMeta(source));
    await check(page, '06-report-citation');
    // Focus shows it too (keyboard users), Escape hides it.
    await page.mouse.move(0, 0);
    await cite.focus();
    await tooltip.waitFor();
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });

    // A click opens the source viewer: the snapshot's whole text, the cited passage highlighted and scrolled into view.
    await cite.click();
    const viewer = page.getByRole('dialog');
    await viewer.locator('.source-text mark').first().waitFor();
    expect(await viewer.locator('.source-text').textContent()).toBe(snapshot!.text);
    const marks = await viewer.locator('.source-text mark').allTextContents();
    expect(marks.some((m) => m.includes(shown))).toBe(true);
    expect(await viewer.locator('h2').textContent()).toBe(`[${source.number}] ${source.title}`);
    expect(await viewer.textContent()).toContain(source.origin);
    expect(await viewer.textContent()).toContain(source.url);
    expect(await markInView(page)).toBe(true);
    await check(page, '06b-source-viewer');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-citation'))).toBe(
      await cite.getAttribute('data-citation'),
    );
    // Every source in the list opens the same viewer, on all the passages the report takes from it.
    const listed = report.sources[evidence.sourceId];
    await page.getByRole('button', { name: `Open source ${listed.number}: ${listed.title}` }).click();
    const used = Object.values(report.evidence).filter((e: any) => e.sourceId === evidence.sourceId).length;
    await page.getByRole('dialog').locator('.source-text mark').first().waitFor();
    expect(await page.getByRole('dialog').locator('.source-text mark').count()).toBeGreaterThan(0);
    expect(await page.getByRole('dialog').locator('.source-text mark').count()).toBeLessThanOrEqual(used);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // Sources panel, claims with status, verification figures, downloads.
    expect(await page.locator('[data-source]').count()).toBe(Object.keys(report.sources).length);
    // The page's three verification figures are the report's (decision 0086).
    const figure = async (name: string) => Number((await page.locator(`[data-figure="${name}"]`).textContent())?.replace(/\D/g, ''));
    expect({ checked: await figure('checked'), sentences: await figure('sentences'), supported: await figure('supported') }).toEqual({
      checked: report.metrics.verification.checked,
      sentences: report.metrics.verification.sentences,
      supported: report.metrics.verification.supported,
    });
    expect(report.metrics.verification.checked).toBeGreaterThan(0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download .md' }).click();
    expect((await download).suggestedFilename()).toBe(`report-${runId}.md`);
    const pdfDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download .pdf' }).click();
    expect((await pdfDownload).suggestedFilename()).toBe(`report-${runId}.pdf`);

    // Every page the gateway serves carries the strict CSP; report.html its own.
    const index = await fetch(`${stack.url}/runs/${runId}`);
    expect(index.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    const html = await fetch(`${stack.gatewayUrl}/v1/runs/${runId}/report.html`, { headers: { authorization: `Bearer ${acme.key}` } });
    expect(html.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'unsafe-inline'.*frame-ancestors 'none'/);
    expect(problems).toEqual([]);
    await context.close();
  }, 900_000);

  it('on a phone, a tap on a citation opens its source with the excerpt highlighted; nothing is wider than the screen', async () => {
    const { page, problems, context } = await openAppAt(stack.browser, stack.url, acme.key, VIEWPORTS.phone, {
      hasTouch: true,
      isMobile: true,
    });
    await page.goto(`${stack.url}/runs/${runs.completed}/report`);
    const cite = page.locator('.report-section.kind-body [data-citation]').first();
    await cite.waitFor();
    await cite.tap();
    const viewer = page.getByRole('dialog');
    await viewer.locator('.source-text mark').first().waitFor();
    const report = (await api('GET', `/v1/runs/${runs.completed}/report.json`)).json;
    const number = Number(await cite.getAttribute('data-citation'));
    const excerpts = Object.values(report.evidence as Record<string, any>)
      .filter((e) => report.sources[e.sourceId].number === number)
      .map((e) => e.excerpt as string);
    const marked = await viewer.locator('.source-text mark').allTextContents();
    expect(marked.some((m) => excerpts.some((x) => m.includes(x)))).toBe(true);
    expect(await markInView(page)).toBe(true);
    // The viewer fills the phone's screen; the page under it does not scroll sideways.
    const box = (await viewer.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, '06c-phone-citation-tap-390.png') });
    expect(problems).toEqual([]);
    await context.close();
  }, 300_000);

  it('plan gate: the reviewer drops a question and adds an analyst in the browser; the run researches exactly that plan; the audit view shows the edit', async () => {
    const { page, problems, context } = await openApp(stack, acme.key);
    const runId = await startFromForm(page, 'How large was the drop in Lake Varen and what caused it?', ['plan']);
    await page.getByRole('link', { name: 'Review the plan' }).click();
    await page.getByRole('heading', { level: 1, name: /Review the plan/ }).waitFor();
    const gate = (await api('GET', `/v1/runs/${runId}/approvals`)).json.items[0];
    const dropped = gate.subject.questions.at(-1);
    await check(page, '07-plan-gate');

    await page.getByRole('button', { name: `Drop question ${gate.subject.questions.length}: ${dropped.text}` }).click();
    await page.getByRole('button', { name: 'Add analyst' }).click();
    const card = page.locator('.card').last();
    await card.getByLabel('Name').fill('Permit Auditor');
    await card.getByLabel('Role').fill('water regulator');
    await card.getByLabel('Affiliation').fill('national water agency');
    await card.getByLabel('Focus').fill('permits, abstraction limits and rules');
    await page.getByRole('button', { name: 'Add question' }).click();
    const n = gate.subject.questions.length; // one dropped, one added: the new one is question n
    await page.getByLabel(`Question ${n}`, { exact: true }).fill('Which abstraction permits were granted around Lake Varen?');
    await page.getByLabel(`Priority of question ${n}`).fill('99');
    await page.getByLabel(`Analyst asking question ${n}`).selectOption({ label: 'Permit Auditor' });
    await page.getByText('3 change(s)').waitFor();
    await check(page, '08-plan-gate-edited');
    await page.getByRole('button', { name: /Approve with 3 edit/ }).click();
    await page.waitForURL(new RegExp(`/runs/${runId}$`));
    await page.locator('[data-milestone="gate_decided"]', { hasText: 'approved with edits' }).waitFor();
    await waitForStatus(page, 'Completed');

    const questions = await sql<{ id: string; text: string; status: string; perspective: string | null }>(
      stack.db.url,
      `SELECT q.id, q.text, q.status, p.name AS perspective FROM research_questions q LEFT JOIN perspectives p ON p.id = q.perspective_id
       WHERE q.run_id = $1 AND q.iteration = 0`,
      [runId],
    );
    const planned = questions.filter((q) => q.status !== 'dropped');
    const expected = [
      ...gate.subject.questions.slice(0, -1).map((q: any) => q.text),
      'Which abstraction permits were granted around Lake Varen?',
    ];
    expect(planned.map((q) => q.text).sort()).toEqual(expected.sort());
    expect(questions.find((q) => q.id === dropped.id)!.status).toBe('dropped');
    const added = planned.find((q) => /abstraction permits/.test(q.text))!;
    expect(added.perspective).toBe('Permit Auditor');
    const searched = (
      await sql<{ question_id: string }>(stack.db.url, 'SELECT DISTINCT question_id FROM search_plans WHERE run_id = $1', [runId])
    ).map((s) => s.question_id);
    expect(searched).not.toContain(dropped.id);
    expect(searched).toContain(added.id);
    const panel = await sql<{ name: string }>(stack.db.url, 'SELECT name FROM perspectives WHERE run_id = $1', [runId]);
    expect(panel.map((p) => p.name)).toContain('Permit Auditor');

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText(/Chain verified/).waitFor();
    const edit = page.locator('[data-audit-kind="plan_edited"]');
    expect(await edit.textContent()).toContain('Added analyst: Permit Auditor');
    expect(await edit.textContent()).toContain(`Removed question: ${dropped.text}`);
    await check(page, '09-audit');
    expect(problems).toEqual([]);
    await context.close();
  }, 900_000);

  it('an intervention from the live view while the run waits at the plan gate changes the run; the outline is reordered in the browser', async () => {
    const { page, problems, context } = await openApp(stack, acme.key);
    const runId = await startFromForm(page, QUESTION, ['plan', 'outline']);
    await page.locator('.gate-banner').waitFor({ timeout: 600_000 });
    await page.getByLabel('Steer the research').selectOption('add_question');
    await page.getByLabel('Question', { exact: true }).fill('How did the Brennmoor dam release schedule change?');
    await page.getByRole('button', { name: 'Send intervention' }).click();
    await page.locator('[data-intervention="add_question"]', { hasText: 'pending' }).waitFor();
    await check(page, '04-live-run-at-gate');
    await page.getByRole('link', { name: 'Review the plan' }).click();
    await page.getByRole('button', { name: 'Approve the plan' }).click();
    await page.locator('.gate-banner', { hasText: 'outline gate' }).waitFor({ timeout: 600_000 });
    // While the run is still in progress (at its outline gate) the feed says what it searched for and read, shards in order.
    const [plan] = await sql<{ query: string }>(
      stack.db.url,
      'SELECT query FROM search_plans WHERE run_id = $1 AND iteration = 0 AND shard = 0',
      [runId],
    );
    await page.locator('[data-step="retrieve.0.0"] [data-detail="query"]', { hasText: plan!.query }).waitFor();
    const [read] = await sql<{ title: string }>(
      stack.db.url,
      'SELECT title FROM source_records WHERE run_id = $1 AND selected AND iteration = 0 AND extract_shard = 0',
      [runId],
    );
    await page.locator('[data-step="extract.0.0"] [data-detail="reading"]', { hasText: read!.title }).waitFor();
    expect(await page.locator('[data-step="extract.0.0"] [data-detail="reading"]').textContent()).toMatch(/· \d+ evidence$/);
    const retrieveShards = (
      await page.locator('[data-step^="retrieve.0."]').evaluateAll((els) => els.map((e) => e.getAttribute('data-step')!))
    ).map((k) => Number(k.split('.')[2]));
    expect(retrieveShards).toEqual([...retrieveShards].sort((a, b) => a - b));
    expect(retrieveShards.length).toBeGreaterThan(1);
    await page.getByRole('link', { name: 'Review the outline' }).click();
    const gate = (await api('GET', `/v1/runs/${runId}/approvals`)).json.items.find((a: any) => a.status === 'open');
    const titles: string[] = gate.subject.sections.map((s: any) => s.title);
    await page.getByRole('button', { name: 'Move down section 1' }).click();
    await check(page, '10-outline-gate');
    await page.getByRole('button', { name: /Approve with 1 edit/ }).click();
    await waitForStatus(page, 'Completed');
    expect(await page.locator('[data-intervention="add_question"]', { hasText: 'applied' }).count()).toBe(1);

    const report = (await api('GET', `/v1/runs/${runId}/report.json`)).json;
    const method = report.sections.find((s: any) => s.kind === 'method');
    expect(JSON.stringify(method)).toContain('question added after iteration 1: \\"How did the Brennmoor dam release schedule change?\\"');
    const body = report.sections.filter((s: any) => s.kind === 'body').map((s: any) => s.title);
    expect(body.slice(0, 2)).toEqual([titles[1], titles[0]]);
    expect(problems).toEqual([]);
    await context.close();
  }, 900_000);

  it('uploads into a collection by drag and drop with per-file errors, cancels and resumes a run, pages through the runs list', async () => {
    const { page, problems, context } = await openApp(stack, acme.key);
    await page.getByRole('link', { name: 'New run' }).first().click();
    await page.getByLabel('New collection').fill('dropped-docs');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Add documents to “dropped-docs”' }).waitFor();
    // Drop four files: two readable, one of an unsupported type (refused before upload), one the server cannot read.
    const good = ['krwa-faq-lake-varen.md', 'varenby-council-minutes-2023-09-19.md'].map((f) => ({
      name: f,
      text: readFileSync(path.join(EXAMPLES, f), 'utf8'),
    }));
    await page.evaluate(
      (files) => {
        // Runs in the page: DOM globals, typed loosely because the test program has no DOM library.
        const w = globalThis as any;
        const dt = new w.DataTransfer();
        for (const f of files)
          dt.items.add(new w.File([f.text], f.name, { type: f.name.endsWith('.pdf') ? 'application/pdf' : 'text/markdown' }));
        const zone = w.document.querySelector('[data-testid="dropzone"]');
        zone.dispatchEvent(new w.DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new w.DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      [...good, { name: 'tool.exe', text: 'MZ' }, { name: 'broken.pdf', text: 'this is not a PDF' }],
    );
    for (const f of good) await page.locator(`[data-file="${f.name}"].upload-done`).waitFor();
    await page.locator('[data-file="tool.exe"].upload-error', { hasText: 'Not a supported type' }).waitFor();
    await page.locator('[data-file="broken.pdf"].upload-error').waitFor();
    await page.getByRole('option', { name: 'dropped-docs (2 documents)' }).waitFor({ state: 'attached' });
    await check(page, '11-new-run-upload');
    const collections = (await api('GET', '/v1/collections')).json.items;
    expect(collections.find((c: any) => c.name === 'dropped-docs').documents).toBe(2);

    // Cancel and resume: a run waiting at its plan gate (deterministic: nothing races the clicks).
    await page.getByRole('link', { name: 'Runs', exact: true }).click();
    const runId = await startFromForm(page, 'What does the Varen Lake Trust say about the decline?', ['plan']);
    await page.locator('.gate-banner').waitFor({ timeout: 600_000 });
    // Cancel asks first: "Keep it running" (focused) changes nothing; "Yes, cancel the run" cancels.
    await page.getByRole('button', { name: 'Cancel run' }).click();
    const keep = page.getByRole('button', { name: 'Keep it running' });
    await keep.waitFor();
    expect(await keep.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    await check(page, '15-confirm-cancel');
    await keep.click();
    await page.getByRole('button', { name: 'Keep it running' }).waitFor({ state: 'detached' });
    expect((await api('GET', `/v1/runs/${runId}`)).json.status).toBe('awaiting_approval');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('button', { name: 'Yes, cancel the run' }).click();
    await waitForStatus(page, 'Cancelled');
    await page.locator('[data-milestone="run_cancelled"]').waitFor();
    await page.getByRole('button', { name: 'Resume run' }).click();
    await waitForStatus(page, 'Awaiting approval');
    await page.locator('[data-milestone="run_resumed"]').waitFor();
    expect((await api('GET', `/v1/runs/${runId}`)).json.status).toBe('awaiting_approval');
    runs.gated = runId;

    // Paging: 23 runs of another tenant, 10 a page, filtered by status.
    const pager = await stack.tenant('pager');
    const prisma = stack.workers.get(PrismaService);
    for (let i = 0; i < 23; i++) {
      await prisma.researchRun.create({
        data: {
          tenantId: pager.id,
          question: `Paged question ${String(i).padStart(2, '0')}`,
          status: i % 3 === 0 ? 'completed' : 'failed',
          options: { engine: 'offline' },
          workflowVersion: 1,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        },
      });
    }
    const other = await openApp(stack, pager.key);
    const rows = other.page.locator('tbody tr');
    const questions = async () => (await rows.locator('.question-cell').allTextContents()).join('|');
    await other.page.getByText('Paged question 22').waitFor();
    expect(await rows.count()).toBe(10);
    await check(other.page, '01-runs');
    const first = await questions();
    await other.page.getByRole('button', { name: 'Older' }).click();
    await other.page.getByText('Paged question 12').waitFor();
    expect(await rows.count()).toBe(10);
    await other.page.getByRole('button', { name: 'Older' }).click();
    await other.page.getByText('Paged question 02').waitFor();
    expect(await rows.count()).toBe(3);
    expect(await other.page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await other.page.getByRole('button', { name: 'Newer' }).click();
    await other.page.getByRole('button', { name: 'Newer' }).click();
    await other.page.getByText('Paged question 22').waitFor();
    expect(await questions()).toBe(first);
    // Text search over the questions (case-insensitive), from the first page.
    await other.page.getByLabel('Search').fill('QUESTION 1');
    await other.page.getByText('Paged question 22').waitFor({ state: 'detached' });
    await other.page.getByText('Paged question 19').waitFor();
    expect((await rows.locator('.question-cell').allTextContents()).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `Paged question ${10 + i}`),
    );
    await other.page.getByLabel('Search').fill('no such words');
    await other.page.getByText('No run asks about “no such words”.').waitFor();
    await check(other.page, '01b-runs-search');
    await other.page.getByLabel('Search').fill('');
    await other.page.getByText('Paged question 22').waitFor();
    await other.page.getByLabel('Status').selectOption('completed');
    await other.page.getByText('Paged question 21').waitFor();
    expect(await rows.count()).toBe(8);
    expect(await other.page.locator('tbody .badge', { hasText: 'Failed' }).count()).toBe(0);
    expect([...problems, ...other.problems]).toEqual([]);
    await other.context.close();
    await context.close();
  }, 900_000);

  it('a run that fails shows its step as failed with the reason, and offers no resume that could only fail again', async () => {
    // The tenant may use the openai engine, but this gateway has no model configured: the run fails at its first step.
    const created = await api('POST', '/v1/runs', {
      question: 'Which engine will answer this?',
      options: { collection: 'varen', engine: 'openai', perspectives: 1, maxIterations: 1 },
    });
    expect(created.status).toBe(201);
    const { page, problems, context } = await openApp(stack, acme.key);
    await page.goto(`${stack.url}/runs/${created.json.id}`);
    await waitForStatus(page, 'Failed');
    const scope = page.locator('[data-step="scope.0.0"]');
    await scope.locator('.step-state', { hasText: 'failed' }).waitFor();
    expect(await scope.getAttribute('class')).toContain('step-failed');
    expect(await scope.textContent()).toMatch(/OPENAI_BASE_URL/);
    expect(await page.getByText('running…').count()).toBe(0);
    await page.getByText(/Resuming would fail again until this is configured on the server/).waitFor();
    expect(await page.getByRole('button', { name: 'Resume run' }).count()).toBe(0);
    await check(page, '16-live-run-failed');
    expect(problems).toEqual([]);
    await context.close();
  }, 600_000);

  it('the live view survives dropped connections: every event exactly once, in order', async () => {
    const created = await api('POST', '/v1/runs', {
      question: 'When did the water level of Lake Varen start to fall?',
      options: { collection: 'varen', perspectives: 2, maxIterations: 1, gates: { plan: 'required' } },
    });
    const runId = created.json.id;
    const { page, problems, context } = await openApp(stack, acme.key);
    await page.goto(`${stack.url}/runs/${runId}`);
    await page.locator('[data-milestone="gate_opened"]').waitFor({ timeout: 600_000 });
    await page.locator('[data-stream-state="live"]').waitFor();
    const before = stack.proxy.eventRequests.length;
    const seenBefore = await page.locator('[data-seq]').count();
    // Cut while the run waits at its gate, then approve while the client is reconnecting.
    expect({ cut: stack.proxy.cutEventStreams(runId), requests: stack.proxy.eventRequests.filter((r) => r.path.includes(runId)) }).toEqual({
      cut: 1,
      requests: [{ path: expect.any(String), lastEventId: undefined }],
    });
    await page.locator('[data-stream-state="reconnecting"]').waitFor();
    const gate = (await api('GET', `/v1/runs/${runId}/approvals`)).json.items[0];
    expect((await api('POST', `/v1/approvals/${gate.id}`, { decision: 'approve' })).status).toBe(200);
    await waitFor('the client reconnected', async () => stack.proxy.eventRequests.length > before, { intervalMs: 50 });
    expect(stack.proxy.eventRequests[before]!.lastEventId).toBe(String(seenBefore));
    // Cut again mid-research, as soon as a few more events have arrived.
    await waitFor('more events', async () => (await page.locator('[data-seq]').count()) > seenBefore + 3, { intervalMs: 20 });
    const cut = stack.proxy.cutEventStreams(runId);
    await waitForStatus(page, 'Completed');
    await page.locator('[data-stream-state="ended"]').waitFor({ timeout: 300_000 });

    const shown = await page.locator('[data-seq]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq'))));
    const stored = (await sql<{ seq: number }>(stack.db.url, 'SELECT seq FROM run_events WHERE run_id = $1 ORDER BY seq', [runId])).map(
      (r) => Number(r.seq),
    );
    expect(shown).toEqual(stored);
    expect(new Set(shown).size).toBe(shown.length);
    const steps = await sql<{ n: string }>(
      stack.db.url,
      "SELECT count(*)::text AS n FROM node_executions WHERE run_id = $1 AND status = 'completed'",
      [runId],
    );
    expect(await page.locator('[data-step]').count()).toBe(Number(steps[0]!.n));
    const resumedAt = stack.proxy.eventRequests.slice(before).map((r) => Number(r.lastEventId ?? 0));
    expect(resumedAt).toEqual([...resumedAt].sort((a, b) => a - b));
    recordFigure('sseCutsMidRun', cut);
    expect(problems).toEqual([]);
    await context.close();
  }, 900_000);

  it('a viewer key sees no write controls; another tenant’s run id shows “not found”', async () => {
    const viewerKey = await stack.key(acme.id, 'auditor', 'viewer');
    const viewer = await openApp(stack, viewerKey);
    expect(await viewer.page.getByRole('link', { name: 'New run' }).count()).toBe(0);
    await viewer.page.goto(`${stack.url}/runs/${runs.gated}`);
    await viewer.page.locator('.gate-banner').waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'Send intervention' }).count()).toBe(0);
    await check(viewer.page, '12-viewer-live-run');
    await viewer.page.getByRole('link', { name: 'See the plan' }).click();
    await viewer.page.getByRole('heading', { level: 1, name: /Review the plan/ }).waitFor();
    expect(await viewer.page.getByRole('button', { name: /Approve/ }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'Add analyst' }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: /Reject/ }).count()).toBe(0);
    await viewer.page.goto(`${stack.url}/runs/${runs.completed}`);
    await viewer.page.locator('[data-stream-state="ended"]').waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Resume run' }).count()).toBe(0);
    await viewer.page.goto(`${stack.url}/runs/new`);
    await viewer.page.getByText('Your key is read-only').waitFor();

    const stranger = await stack.tenant('globex');
    const other = await openApp(stack, stranger.key);
    for (const suffix of ['', '/report', '/audit', '/gate']) {
      await other.page.goto(`${stack.url}/runs/${runs.completed}${suffix}`);
      await other.page.getByRole('heading', { level: 1, name: 'Run not found' }).waitFor();
    }
    await check(other.page, '13-not-found');
    // An address the app does not have: its own page (status 404), not the API's JSON; the API's 404 stays JSON.
    const missing = await other.page.goto(`${stack.url}/reports/latest`);
    expect(missing!.status()).toBe(404);
    await other.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await check(other.page, '14-page-not-found');
    const api404 = await fetch(`${stack.gatewayUrl}/v1/nothing-here`, { headers: { accept: 'text/html' } });
    expect([api404.status, api404.headers.get('content-type')]).toEqual([404, 'application/json; charset=utf-8']);
    expect([...viewer.problems, ...other.problems]).toEqual([]);
    await viewer.context.close();
    await other.context.close();
  }, 600_000);

  it('no serious or critical accessibility violation on any screen', async () => {
    const { page, context } = await stack.browser.newContext({ viewport: { width: 1280, height: 800 } }).then(async (c) => ({
      context: c,
      page: await c.newPage(),
    }));
    await page.goto(`${stack.url}/`);
    await page.getByLabel('API key').waitFor();
    await check(page, '00-sign-in');
    await context.close();
    // Dark mode follows the system setting; its colours pass the same checks.
    const dark = await openAppAt(stack.browser, stack.url, acme.key, VIEWPORTS.desktop, { colorScheme: 'dark' });
    await check(dark.page, '17-dark-runs');
    await dark.page.goto(`${stack.url}/runs/${runs.completed}`);
    await dark.page.locator('[data-stream-state="ended"]').waitFor();
    await check(dark.page, '18-dark-live-run');
    await dark.page.goto(`${stack.url}/runs/${runs.completed}/report`);
    await dark.page.locator('[data-citation]').first().waitFor();
    await check(dark.page, '19-dark-report');
    expect(dark.problems).toEqual([]);
    await dark.context.close();
    expect(Object.keys(a11y).sort()).toEqual(
      expect.arrayContaining([
        '00-sign-in',
        '01-runs',
        '02-new-run',
        '03-live-run',
        '05-report',
        '07-plan-gate',
        '09-audit',
        '10-outline-gate',
        '13-not-found',
      ]),
    );
    expect(a11y).toEqual(Object.fromEntries(Object.keys(a11y).map((k) => [k, []])));
  });
});
