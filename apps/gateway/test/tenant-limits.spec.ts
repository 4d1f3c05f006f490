import { randomUUID } from 'node:crypto';
import { MeView } from '@dossier/contracts';
import { ApiKeyRepository } from '@dossier/db';
import { sql, waitFor } from '@dossier/testing';
import { client, startGateway, type Gateway } from './gateway-harness';

/** Issue 30, item 4: runs in progress and spend per tenant, event streams per key; each a 429 naming the limit, shown in /v1/me. */
describe('security round 2: limits per tenant and per key', () => {
  let gw: Gateway;

  beforeAll(async () => {
    // The operator's defaults, as the gateway ships them (the harness raises runs in progress for the other suites).
    gw = await startGateway({ env: { RUNS_IN_PROGRESS_PER_TENANT: '10' } });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  const me = async (key: string): Promise<MeView> => MeView.parse((await client(gw.url, key)('GET', '/v1/me')).json);

  /** A model call the tenant paid for, `at` (SQL) as its time. */
  async function spent(tenantId: string, costUsd: number, at = 'now()'): Promise<void> {
    await sql(
      gw.db.url,
      `INSERT INTO llm_calls (id, tenant_id, run_id, step_key, role, engine, model, tokens_in, tokens_out, cost_usd, latency_ms, outcome, created_at)
       VALUES ($1, $2, $3, 'x.scope.0.0', 'director', 'openai', 'gpt-test', 1000, 100, $4, 10, 'ok', ${at})`,
      [randomUUID(), tenantId, randomUUID(), costUsd],
    );
  }

  it('40 concurrent POST /v1/runs from a default tenant: 10 runs start, 30 get a 429 naming runs_in_progress; a finished run frees a place', async () => {
    const tenant = await gw.tenant('eager');
    const api = client(gw.url, tenant.key);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api('POST', '/v1/runs', { question: `Question ${i}?`, options: { perspectives: 8, maxIterations: 20 } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.json).toMatchObject({ error: 'limit_reached', details: { limit: 'runs_in_progress', max: 10, current: 10 } });
    expect(refused.json.message).toMatch(/10 runs in progress, its limit/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await me(tenant.key)).limits.runsInProgress).toEqual({ max: 10, current: 10 });
    // Another tenant is not affected.
    expect((await client(gw.url, (await gw.tenant('patient')).key)('POST', '/v1/runs', { question: 'Mine?' })).status).toBe(201);
    // Cancelling one frees its place.
    const first = answers.find((a) => a.status === 201)!.json.id as string;
    expect((await api('POST', `/v1/runs/${first}/cancel`, {})).status).toBe(200);
    expect((await api('POST', '/v1/runs', { question: 'One more?' })).status).toBe(201);
    // A resume brings a run back into progress: at the limit, it is refused too.
    const resume = await api('POST', `/v1/runs/${first}/resume`, {});
    expect(resume.status).toBe(429);
    expect(resume.json.details.limit).toBe('runs_in_progress');
  });

  it("a tenant's policy sets its own limit", async () => {
    const tenant = await gw.tenant('tight', { limits: { runsInProgress: 2 } });
    const api = client(gw.url, tenant.key);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api('POST', '/v1/runs', { question: `Q${i}?` })).status);
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect((await me(tenant.key)).limits.runsInProgress).toEqual({ max: 2, current: 2 });
  });

  it('spend per UTC day and per month: new runs, replays and resumes are refused once reached, with Retry-After until the day or month turns', async () => {
    const daily = await gw.tenant('daily', { limits: { spendPerDayUsd: 1, spendPerMonthUsd: 100 } });
    const api = client(gw.url, daily.key);
    expect((await api('POST', '/v1/runs', { question: 'Before spending?' })).status).toBe(201);
    await spent(daily.id, 0.4);
    await spent(daily.id, 0.7);
    const refused = await api('POST', '/v1/runs', { question: 'After spending?' });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ error: 'limit_reached', details: { limit: 'spend_per_day', max: 1 } });
    expect(refused.json.details.current).toBeCloseTo(1.1);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const figures = (await me(daily.key)).limits;
    expect(figures.spendPerDayUsd.max).toBe(1);
    expect(figures.spendPerDayUsd.current).toBeCloseTo(1.1);
    expect(figures.spendPerMonthUsd.current).toBeCloseTo(1.1);

    const monthly = await gw.tenant('monthly', { limits: { spendPerDayUsd: 100, spendPerMonthUsd: 2 } });
    // Spent earlier this month (the month's first minute; on the 1st that is today too, within the day's 100).
    await spent(monthly.id, 2.5, "date_trunc('month', now(), 'UTC') + interval '1 minute'");
    const monthApi = client(gw.url, monthly.key);
    const month = await monthApi('POST', '/v1/runs', { question: 'This month?' });
    expect(month.status).toBe(429);
    expect(month.json.details).toMatchObject({ limit: 'spend_per_month', max: 2, current: 2.5 });
    // Spend from last month does not count.
    const lastMonth = await gw.tenant('last-month', { limits: { spendPerMonthUsd: 2 } });
    await spent(lastMonth.id, 50, "date_trunc('month', now(), 'UTC') - interval '1 hour'");
    expect((await client(gw.url, lastMonth.key)('POST', '/v1/runs', { question: 'New month?' })).status).toBe(201);
    // The default limits are in /v1/me for a tenant whose policy names none.
    expect((await me(lastMonth.key)).limits).toMatchObject({ spendPerDayUsd: { max: 50 }, spendPerMonthUsd: { max: 2, current: 0 } });
  });

  it('150 concurrent event streams with one key: the key holds its limit of 20, the rest get a 429; other keys and closed streams free places', async () => {
    const tenant = await gw.tenant('watcher');
    const api = client(gw.url, tenant.key);
    const run = (await api('POST', '/v1/runs', { question: 'Who watches?' })).json.id as string;
    const controllers: AbortController[] = [];
    const open = async (key: string): Promise<Response> => {
      const controller = new AbortController();
      controllers.push(controller);
      return fetch(`${gw.url}/v1/runs/${run}/events`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
    };
    try {
      const streams = await Promise.all(Array.from({ length: 150 }, () => open(tenant.key)));
      const held = streams.filter((s) => s.status === 200);
      const refused = streams.filter((s) => s.status === 429);
      expect(held).toHaveLength(20);
      expect(refused).toHaveLength(130);
      expect(await refused[0]!.json()).toMatchObject({ error: 'limit_reached', details: { limit: 'event_streams_per_key', max: 20 } });
      expect((await me(tenant.key)).limits.eventStreamsPerKey).toEqual({ max: 20, current: 20 });
      // Another key of the same tenant has its own allowance.
      const second = await gw.app.get(ApiKeyRepository).create(tenant.id, 'watcher-2');
      expect((await open(second.key)).status).toBe(200);
      // Closing streams gives their places back.
      streams.forEach((s, i) => s.status === 200 && i % 10 === 0 && controllers[i]!.abort());
      await waitFor('a closed stream to give back its place', async () => {
        const next = await open(tenant.key);
        return next.status === 200 ? true : undefined;
      });
    } finally {
      for (const c of controllers) c.abort();
    }
  });
});
