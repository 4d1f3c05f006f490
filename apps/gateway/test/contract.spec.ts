import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiKeyRepository } from '@dossier/db';
import { sql } from '@dossier/testing';
import { startOpsServer } from '@dossier/telemetry';
import { API_ROUTES } from '../src/docs/api-routes';
import { ADMIN_KEY, client, EXAMPLES, startGateway, type Gateway } from './gateway-harness';

/** Contract tests without workers: runs stay queued, which is all these need. */
describe('gateway contract: errors, auth, policy, rate limit, docs, probes, operators', () => {
  let gw: Gateway;
  let a: { id: string; key: string };
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    gw = await startGateway();
    a = await gw.tenant('alpha');
    api = client(gw.url, a.key);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('every error is { error, message, details } with the right 4xx', async () => {
    const cases: [string, Promise<{ status: number; json: any; headers: Headers }>, number, string][] = [
      ['unknown field', api('POST', '/v1/runs', { question: 'Why?', colour: 'red' }), 400, 'validation_failed'],
      ['unknown option', api('POST', '/v1/runs', { question: 'Why?', options: { turbo: true } }), 400, 'validation_failed'],
      ['missing question', api('POST', '/v1/runs', {}), 400, 'validation_failed'],
      ['malformed JSON', api('POST', '/v1/runs', '{"question": '), 400, 'bad_request'],
      ['not a uuid', api('GET', '/v1/runs/not-a-uuid'), 400, 'validation_failed'],
      ['bad status filter', api('GET', '/v1/runs?status=sleeping'), 400, 'validation_failed'],
      ['unknown query parameter', api('GET', '/v1/runs?sort=asc'), 400, 'validation_failed'],
      ['bad cursor', api('GET', '/v1/runs?cursor=zzzz'), 400, 'validation_failed'],
      ['unknown run', api('GET', '/v1/runs/6f0c6c1e-0000-4000-8000-000000000000'), 404, 'not_found'],
      ['unknown route', api('GET', '/v1/nothing-here'), 404, 'not_found'],
      ['text body', api('POST', '/v1/runs', 'question=why', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type'],
      ['too large', api('POST', '/v1/runs', { question: 'x'.repeat(300 * 1024) }), 413, 'payload_too_large'],
      ['no key', client(gw.url)('GET', '/v1/runs'), 401, 'unauthorized'],
      ['malformed key', client(gw.url, 'hello')('GET', '/v1/runs'), 401, 'unauthorized'],
      ['wrong secret', client(gw.url, `${a.key.slice(0, 17)}${'A'.repeat(43)}`)('GET', '/v1/runs'), 401, 'unauthorized'],
    ];
    for (const [name, pending, status, error] of cases) {
      const res = await pending;
      expect({ name, status: res.status, error: res.json?.error }).toEqual({ name, status, error });
      expect(Object.keys(res.json).sort()).toEqual(['details', 'error', 'message']);
      expect(typeof res.json.message).toBe('string');
    }
    const unknownField = await api('POST', '/v1/runs', { question: 'Why?', colour: 'red' });
    expect(unknownField.json.details.issues[0]).toMatchObject({ code: 'unrecognized_keys' });
    expect((await client(gw.url)('GET', '/v1/runs')).headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('a revoked key is refused at once', async () => {
    const { key, row } = await gw.app.get(ApiKeyRepository).create(a.id, 'temp-robot');
    const temp = client(gw.url, key);
    expect((await temp('GET', '/v1/runs')).status).toBe(200);
    await gw.app.get(ApiKeyRepository).revoke(row.prefix);
    const refused = await temp('GET', '/v1/runs');
    expect(refused.status).toBe(401);
    expect(refused.json.error).toBe('unauthorized');
    // The secret is stored only as a hash.
    const stored = await sql<{ secret_hash: string }>(gw.db.url, `SELECT secret_hash FROM api_keys WHERE prefix = '${row.prefix}'`);
    expect(stored[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain(stored[0]!.secret_hash);
  });

  it('a viewer key reads but may not change anything (403); its own tenant still scopes it', async () => {
    const { key } = await gw.app.get(ApiKeyRepository).create(a.id, 'auditor', 'viewer');
    const viewer = client(gw.url, key);
    expect((await viewer('GET', '/v1/runs')).status).toBe(200);
    const refused = await viewer('POST', '/v1/runs', { question: 'May I?' });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('forbidden');
    expect((await viewer('POST', '/v1/collections', { name: 'viewer-made' })).status).toBe(403);
  });

  it("the tenant's policy: required gates forced, unset budgets capped, a request beyond a cap is a 422 naming it", async () => {
    const t = await gw.tenant('capped', {
      requiredGates: ['plan'],
      engines: ['offline'],
      searchProviders: ['corpus'],
      caps: { tokens: 1000, maxIterations: 2, perspectives: 4 },
    });
    const capped = client(gw.url, t.key);
    const cases: [object, string][] = [
      [{ budgets: { tokens: 5000 } }, 'tokens'],
      [{ maxIterations: 5 }, 'maxIterations'],
      [{ perspectives: 6 }, 'perspectives'],
      [{ engine: 'openai' }, 'engines'],
      [{ searchProviders: ['corpus', 'tavily'] }, 'searchProviders'],
    ];
    for (const [options, cap] of cases) {
      const res = await capped('POST', '/v1/runs', { question: 'Within limits?', options });
      expect({ cap, status: res.status, error: res.json.error, named: res.json.details.cap }).toEqual({
        cap,
        status: 422,
        error: 'policy_violation',
        named: cap,
      });
      expect(res.json.message).toContain(cap);
    }
    const ok = await capped('POST', '/v1/runs', { question: 'Within limits?', options: { gates: { plan: 'auto' } } });
    expect(ok.status).toBe(201);
    expect(ok.json.options).toMatchObject({ gates: { plan: 'required' }, budgets: { tokens: 1000 }, maxIterations: 2, perspectives: 3 });
    const runs = await sql<{ n: string }>(gw.db.url, `SELECT count(*) AS n FROM research_runs WHERE tenant_id = '${t.id}'`);
    expect(Number(runs[0]!.n)).toBe(1);
  });

  it('a tenant over its rate limit gets 429 with Retry-After; other tenants are unaffected', async () => {
    const t = await gw.tenant('chatty', { rateLimit: { perSecond: 0.5, burst: 2 } });
    const chatty = client(gw.url, t.key);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof chatty>> | undefined;
    for (let i = 0; i < 4; i++) {
      const res = await chatty('GET', '/v1/runs');
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses.slice(2)).toEqual([429, 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited!.json.error).toBe('rate_limited');
    expect((await api('GET', '/v1/runs')).status).toBe(200);
  });

  it('cursor pagination walks every run once, newest first, and filters by status', async () => {
    const t = await gw.tenant('pager');
    const pager = client(gw.url, t.key);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await pager('POST', '/v1/runs', { question: `Question number ${i}?` })).json.id);
    await pager('POST', `/v1/runs/${made[1]}/cancel`, {});
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await pager('GET', `/v1/runs?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.json.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.items.map((r: any) => r.id));
      cursor = page.json.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    const cancelled = await pager('GET', '/v1/runs?status=cancelled');
    expect(cancelled.json.items.map((r: any) => r.id)).toEqual([made[1]]);
  });

  it('interventions: queued (201) and listed, recorded in events and audit with the caller; 400 when malformed, 409 once the run is over', async () => {
    const run = (await api('POST', '/v1/runs', { question: 'What drove the lake level down?' })).json.id;
    expect((await api('POST', `/v1/runs/${run}/interventions`, { type: 'exclude_domain', domain: 'not a domain' })).status).toBe(400);
    expect(
      (await api('POST', `/v1/runs/${run}/interventions`, { type: 'add_question', question: 'Did evaporation matter?', extra: 1 })).status,
    ).toBe(400);
    const queued = await api('POST', `/v1/runs/${run}/interventions`, { type: 'add_question', question: 'Did evaporation matter?' });
    expect(queued.status).toBe(201);
    expect(queued.json).toMatchObject({
      runId: run,
      status: 'pending',
      input: { type: 'add_question', question: 'Did evaporation matter?' },
      createdBy: 'alpha-robot (key ' + a.key.slice(4, 16) + ')',
    });
    const listed = await api('GET', `/v1/runs/${run}/interventions`);
    expect(listed.json.items.map((i: { id: string }) => i.id)).toEqual([queued.json.id]);
    const audit = await api('GET', `/v1/runs/${run}/audit`);
    expect(audit.json.events.map((e: { kind: string }) => e.kind)).toContain('intervention_queued');
    expect(audit.json.verification.ok).toBe(true);
    await api('POST', `/v1/runs/${run}/cancel`, {});
    const late = await api('POST', `/v1/runs/${run}/interventions`, { type: 'narrow_scope', scope: 'Only the years 2020 to 2024' });
    expect(late.status).toBe(409);
    expect(late.json.error).toBe('run_state_conflict');
  });

  it('an idle event stream sends heartbeat comments (and its events) while the run is in progress', async () => {
    const run = (await api('POST', '/v1/runs', { question: 'A run nobody works on?' })).json.id;
    const controller = new AbortController();
    const res = await fetch(`${gw.url}/v1/runs/${run}/events`, {
      headers: { authorization: `Bearer ${a.key}` },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toMatch(/^retry: \d+/);
    expect(text).toMatch(/^id: 1\nevent: run_created\ndata: \{/m);
  });

  it('documents upload as JSON or multipart (pdf too) into a collection; malformed uploads are 400s that store nothing', async () => {
    const coll = await api('POST', '/v1/collections', { name: 'uploads' });
    expect(coll.status).toBe(201);
    expect((await api('POST', '/v1/collections', { name: 'uploads' })).status).toBe(200);
    const url = `${gw.url}/v1/collections/${coll.json.id}/documents`;
    const auth = { authorization: `Bearer ${a.key}` };
    const form = (name: string, bytes: Uint8Array | string) => {
      const f = new FormData();
      f.append('file', new Blob([bytes]), name);
      return f;
    };
    const md = await fetch(url, {
      method: 'POST',
      headers: auth,
      body: form('notes.md', '# Notes\n\nThe lake fell by four metres between 2019 and 2024.'),
    });
    expect(md.status).toBe(201);
    expect(await md.json()).toMatchObject({ ingested: 1, failed: [] });
    const pdf = await fetch(url, {
      method: 'POST',
      headers: auth,
      body: form('panel.pdf', readFileSync(path.join(EXAMPLES, 'review-panel-interim-findings-2025.pdf'))),
    });
    expect(pdf.status).toBe(201);
    const json = await api('POST', `/v1/collections/${coll.json.id}/documents`, {
      filename: 'plain.txt',
      content: 'Plain text about the reservoir and its water balance.',
    });
    expect(json.status).toBe(201);
    expect((await api('GET', `/v1/collections/${coll.json.id}`)).json.documents).toBe(3);
    const bad = [
      await fetch(url, { method: 'POST', headers: auth, body: form('evil.exe', 'MZ') }),
      await fetch(url, { method: 'POST', headers: auth, body: form('broken.pdf', 'not a pdf at all') }),
      await fetch(url, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'multipart/form-data; boundary=zzz' },
        body: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\nunterminated',
      }),
    ];
    for (const res of bad) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('validation_failed');
    }
    expect((await api('GET', `/v1/collections/${coll.json.id}`)).json.documents).toBe(3);
    // Multipart only where documented: a run is created from JSON alone.
    const multipartRun = await fetch(`${gw.url}/v1/runs`, { method: 'POST', headers: auth, body: form('q.md', 'question') });
    expect(multipartRun.status).toBe(415);
    expect(((await multipartRun.json()) as { error: string }).error).toBe('unsupported_media_type');
  });

  it('OpenAPI 3.1 at /docs from the same zod schemas; every documented route is routed', async () => {
    const doc = await client(gw.url)('GET', '/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toBe('3.1.0');
    const createRun = doc.json.paths['/v1/runs'].post.requestBody.content['application/json'].schema;
    expect(createRun.additionalProperties).toBe(false);
    expect(createRun.required).toEqual(['question']);
    expect(doc.json.paths['/v1/runs/{id}/events'].get.parameters.map((p: any) => p.name)).toEqual(['id', 'lastEventId', 'Last-Event-ID']);
    const html = await client(gw.url)('GET', '/docs');
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    for (const route of API_ROUTES) {
      const url = route.path.replace('{id}', '00000000-0000-4000-8000-000000000000');
      const res = await api(route.method.toUpperCase(), url, route.method === 'post' ? {} : undefined);
      expect({ route: `${route.method} ${route.path}`, message: res.json?.message }).not.toEqual({
        route: `${route.method} ${route.path}`,
        message: 'No such endpoint',
      });
      expect(res.status).toBeLessThan(500);
    }
  });

  it('healthz and readyz on the public port; Prometheus metrics only on the ops port', async () => {
    const anon = client(gw.url);
    expect((await anon('GET', '/healthz')).json).toEqual({ status: 'ok' });
    expect((await anon('GET', '/readyz')).json).toEqual({ status: 'ok', postgres: 'ok', redis: 'ok' });
    await api('GET', '/v1/runs');
    const publicMetrics = await anon('GET', '/metrics');
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.json.error).toBe('not_found');
    const ops = await startOpsServer({ port: 0, host: '127.0.0.1', ready: () => true });
    try {
      const metrics = await client(`http://127.0.0.1:${ops.port}`)('GET', '/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.text).toMatch(/^dossier_runs\{status="running"\} \d+/m);
      expect(metrics.text).toMatch(/^dossier_queue_jobs\{queue="planner",state="waiting"\} \d+/m);
      expect(metrics.text).toMatch(/^dossier_gateway_http_requests_total\{method="GET",route="\/v1\/runs",status="200"\} \d+/m);
      expect(metrics.text).toMatch(/^dossier_gateway_http_request_duration_seconds_bucket/m);
    } finally {
      await ops.close();
    }
  });

  it('bull-board at /admin/queues only with the admin key', async () => {
    const anon = client(gw.url);
    const denied = await anon('GET', '/admin/queues');
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await client(gw.url, a.key)('GET', '/admin/queues')).status).toBe(401);
    const basic = `Basic ${Buffer.from(`ops:${ADMIN_KEY}`).toString('base64')}`;
    const page = await anon('GET', '/admin/queues', undefined, { authorization: basic });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html/i);
    const queues = await client(gw.url, ADMIN_KEY)('GET', '/admin/queues/api/queues');
    expect(queues.status).toBe(200);
    expect(queues.json.queues.map((q: { name: string }) => q.name).sort()).toEqual([
      'claims',
      'extractor',
      'planner',
      'renderer',
      'searcher',
      'verifier',
      'writer',
    ]);
  });
});
