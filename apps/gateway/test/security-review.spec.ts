import net from 'node:net';
import { RUN_OPTION_LIMITS } from '@dossier/contracts';
import { PrismaService } from '@dossier/db';
import { sql } from '@dossier/testing';
import { ADMIN_CSP, GATEWAY_CSP } from '../src/common/http-hardening';
import { API_ROUTES } from '../src/docs/api-routes';
import { ADMIN_KEY, client, startGateway, type Gateway, type Reply } from './gateway-harness';

const SOME_UUID = '6f0c6c1e-0000-4000-8000-000000000000';

function expectErrorShape(res: Reply, status: number, error: string): void {
  expect({ status: res.status, error: res.json?.error }).toEqual({ status, error });
  expect(Object.keys(res.json).sort()).toEqual(['details', 'error', 'message']);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

/** One raw HTTP exchange on a socket (for requests fetch will not send: oversized headers, not HTTP at all). */
function rawExchange(url: string, request: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('utf8')));
    socket.on('close', () => resolve(out));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? resolve(out) : reject(err)));
  });
}

function parseRaw(text: string): { status: number; headers: Record<string, string>; json: any } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, json: JSON.parse(body) };
}

/** The findings of the security review (issue 11, item 3) that the gateway answers, one regression test each. */
describe('gateway security review', () => {
  let gw: Gateway;
  let tenant: { id: string; key: string };
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    gw = await startGateway();
    tenant = await gw.tenant('reviewed');
    api = client(gw.url, tenant.key);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  const runCount = async (): Promise<number> =>
    Number((await sql<{ n: string }>(gw.db.url, 'SELECT count(*) AS n FROM research_runs WHERE tenant_id = $1', [tenant.id]))[0]!.n);

  it('report.html (and every other answer) carries a strict Content-Security-Policy and X-Content-Type-Options: nosniff', async () => {
    const run = (await api('POST', '/v1/runs', { question: 'Is the report served safely?' })).json.id as string;
    const prisma = gw.app.get(PrismaService);
    for (const [format, content] of [
      ['html', '<!doctype html><html><body><p>Report</p><script>alert(1)</script></body></html>'],
      ['md', '# Report'],
      ['json', '{"title":"Report"}'],
    ] as const) {
      await prisma.reportArtifact.create({ data: { tenantId: tenant.id, runId: run, format, content } });
    }
    const html = await api('GET', `/v1/runs/${run}/report.html`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.headers.get('content-security-policy')).toBe(GATEWAY_CSP);
    expect(GATEWAY_CSP).toMatch(/default-src 'none'/);
    expect(GATEWAY_CSP).toMatch(/frame-ancestors 'none'/);
    expect(GATEWAY_CSP).not.toMatch(/script-src/);
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    const negotiated = await api('GET', `/v1/runs/${run}/report`, undefined, { accept: 'text/html' });
    expect(negotiated.headers.get('content-security-policy')).toBe(GATEWAY_CSP);

    const others: [string, Promise<Reply>][] = [
      ['report.md', api('GET', `/v1/runs/${run}/report.md`)],
      ['run', api('GET', `/v1/runs/${run}`)],
      ['docs page', client(gw.url)('GET', '/docs')],
      ['openapi', client(gw.url)('GET', '/docs/openapi.json')],
      ['healthz', client(gw.url)('GET', '/healthz')],
      ['404', api('GET', '/v1/nothing-here')],
      ['401', client(gw.url)('GET', '/v1/runs')],
      ['400', api('POST', '/v1/runs', { colour: 'red' })],
    ];
    for (const [name, pending] of others) {
      const res = await pending;
      expect({ name, csp: res.headers.get('content-security-policy'), nosniff: res.headers.get('x-content-type-options') }).toEqual({
        name,
        csp: GATEWAY_CSP,
        nosniff: 'nosniff',
      });
    }
    const admin = await client(gw.url, ADMIN_KEY)('GET', '/admin/queues');
    expect(admin.status).toBe(200);
    expect(admin.headers.get('content-security-policy')).toBe(ADMIN_CSP);
    expect(admin.headers.get('x-content-type-options')).toBe('nosniff');
    // The SSE stream writes its own head on the raw response: the headers are there too.
    const controller = new AbortController();
    const sse = await fetch(`${gw.url}/v1/runs/${run}/events`, {
      headers: { authorization: `Bearer ${tenant.key}` },
      signal: controller.signal,
    });
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(sse.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sse.headers.get('content-security-policy')).toBe(GATEWAY_CSP);
    controller.abort();
  });

  it('a body that is not JSON is a 415 on every JSON endpoint (multipart only on the upload route), and creates nothing', async () => {
    const before = await runCount();
    const form = await api('POST', '/v1/runs', 'question=Why%20now%3F', { 'content-type': 'application/x-www-form-urlencoded' });
    expectErrorShape(form, 415, 'unsupported_media_type');
    expect(form.json.details.allowed).toEqual(['application/json']);
    const posts = API_ROUTES.filter((r) => r.method === 'post').map((r) => r.path.replace('{id}', SOME_UUID));
    expect(posts.length).toBeGreaterThanOrEqual(6);
    const types = [
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/merge-patch+json',
    ];
    for (const path of posts) {
      for (const type of types) {
        if (type.startsWith('multipart') && path.endsWith('/documents')) continue;
        const res = await api('POST', path, 'a=b', { 'content-type': type });
        expect({ path, type, status: res.status, error: res.json?.error }).toEqual({
          path,
          type,
          status: 415,
          error: 'unsupported_media_type',
        });
      }
    }
    // A body with no Content-Type at all is refused the same way; JSON with a charset is JSON.
    const untyped = await fetch(`${gw.url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}` },
      body: new Uint8Array(Buffer.from('{"question":"Untyped?"}')),
    });
    expect(untyped.status).toBe(415);
    expect(await runCount()).toBe(before);
    const json = await api('POST', '/v1/runs', { question: 'Typed?' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(json.status).toBe(201);
  });

  it('an Idempotency-Key reused with any other request body is a 409; the same body (any key order, defaults spelled out) replays', async () => {
    const headers = { 'idempotency-key': 'review-idem-1' };
    const first = await api('POST', '/v1/runs', { question: 'Which gauge is right?', options: { maxIterations: 2 } }, headers);
    expect(first.status).toBe(201);
    const same = await api(
      'POST',
      '/v1/runs',
      { options: { engine: 'offline', maxIterations: 2, perspectives: 3 }, question: '  Which gauge is right?  ' },
      headers,
    );
    expect(same.status).toBe(200);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(same.json.id).toBe(first.json.id);
    for (const body of [
      { question: 'Which gauge is right?', options: { maxIterations: 3 } },
      { question: 'Which gauge is right?' },
      { question: 'Which gauge is right?', options: { maxIterations: 2, gates: { plan: 'required' } } },
      { question: 'Which gauge is wrong?', options: { maxIterations: 2 } },
    ]) {
      const res = await api('POST', '/v1/runs', body, headers);
      expectErrorShape(res, 409, 'conflict');
      expect(res.json.details).toEqual({ runId: first.json.id, reason: 'idempotency_key_reused' });
    }
    const stored = await sql<{ n: string }>(gw.db.url, "SELECT count(*) AS n FROM research_runs WHERE idempotency_key = 'review-idem-1'");
    expect(Number(stored[0]!.n)).toBe(1);
  });

  it('a NUL byte or a lone surrogate in any text field is a 400 naming the field, never a 500, and stores nothing', async () => {
    const before = await runCount();
    const collection = (await api('POST', '/v1/collections', { name: 'clean-text' })).json.id as string;
    const cases: [string, string, (bad: string) => unknown, string][] = [
      ['POST', '/v1/runs', (bad) => ({ question: `Why${bad}?` }), 'question'],
      ['POST', '/v1/runs', (bad) => ({ question: 'Why?', options: { collection: `c${bad}` } }), 'options.collection'],
      ['POST', '/v1/runs', (bad) => ({ question: 'Why?', options: { searchProviders: [`corpus${bad}`] } }), 'options.searchProviders.0'],
      ['POST', `/v1/runs/${SOME_UUID}/cancel`, (bad) => ({ reason: `stop${bad}` }), 'reason'],
      ['POST', `/v1/runs/${SOME_UUID}/interventions`, (bad) => ({ type: 'add_question', question: `Why${bad}?` }), 'question'],
      ['POST', `/v1/runs/${SOME_UUID}/interventions`, (bad) => ({ type: 'narrow_scope', scope: `Only ${bad}2024` }), 'scope'],
      ['POST', `/v1/approvals/${SOME_UUID}`, (bad) => ({ decision: 'reject', feedback: `More${bad}` }), 'feedback'],
      ['POST', `/v1/approvals/${SOME_UUID}`, (bad) => ({ decision: 'approve', comment: `Fine${bad}` }), 'comment'],
      ['POST', '/v1/collections', (bad) => ({ name: `coll${bad}` }), 'name'],
      ['POST', `/v1/collections/${collection}/documents`, (bad) => ({ filename: `a${bad}.md`, content: '# Notes' }), 'filename'],
      ['POST', `/v1/collections/${collection}/documents`, (bad) => ({ filename: 'a.md', content: `# Notes${bad}` }), 'content'],
    ];
    for (const bad of ['\u0000', '\ud800', '\udfff']) {
      for (const [method, path, body, field] of cases) {
        // JSON.stringify writes a lone surrogate as an escape (\ud800): what a client's JSON would carry.
        const res = await api(method, path, JSON.stringify(body(bad)));
        expect({ path, field, status: res.status }).toEqual({ path, field, status: 400 });
        expect(res.json.error).toBe('validation_failed');
        const issue = (res.json.details.issues as { path: string; message: string }[]).find((i) => i.path === field);
        expect({ field, message: issue?.message }).toEqual({
          field,
          message: expect.stringMatching(/NUL character or an unpaired UTF-16 surrogate/),
        });
        expect(res.json.message).toContain(field);
      }
    }
    const cursor = await api('GET', '/v1/runs?cursor=%00abc');
    expectErrorShape(cursor, 400, 'validation_failed');
    expect(cursor.json.details.issues[0].path).toBe('cursor');
    expect(await runCount()).toBe(before);
    expect((await api('GET', `/v1/collections/${collection}`)).json.documents).toBe(0);
  });

  it('every numeric option is bounded: beyond a documented maximum is a 400 naming it; at the maximum the run is created', async () => {
    const cases: [object, string][] = [
      [{ budgets: { wallTimeMs: 9007199254740991 } }, 'options.budgets.wallTimeMs'],
      [{ gateTimeoutMs: 9007199254740991 }, 'options.gateTimeoutMs'],
      [{ budgets: { tokens: RUN_OPTION_LIMITS.tokens + 1 } }, 'options.budgets.tokens'],
      [{ budgets: { costUsd: RUN_OPTION_LIMITS.costUsd * 2 } }, 'options.budgets.costUsd'],
      [{ maxIterations: 1e9 }, 'options.maxIterations'],
    ];
    for (const [options, field] of cases) {
      const res = await api('POST', '/v1/runs', { question: 'How long may this take?', options });
      expectErrorShape(res, 400, 'validation_failed');
      expect(res.json.details.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    // 1e400 is valid JSON for Infinity.
    const infinite = await api('POST', '/v1/runs', '{"question":"Forever?","options":{"budgets":{"costUsd":1e400}}}');
    expectErrorShape(infinite, 400, 'validation_failed');
    const atMax = await api('POST', '/v1/runs', {
      question: 'As long as allowed?',
      options: {
        budgets: { tokens: RUN_OPTION_LIMITS.tokens, costUsd: RUN_OPTION_LIMITS.costUsd, wallTimeMs: RUN_OPTION_LIMITS.wallTimeMs },
        gateTimeoutMs: RUN_OPTION_LIMITS.gateTimeoutMs,
      },
    });
    expect(atMax.status).toBe(201);
    const [row] = await sql<{ deadline: Date; created: Date }>(
      gw.db.url,
      'SELECT deadline_at AS deadline, created_at AS created FROM research_runs WHERE id = $1',
      [atMax.json.id],
    );
    expect(row!.deadline.getTime() - row!.created.getTime()).toBeGreaterThanOrEqual(RUN_OPTION_LIMITS.wallTimeMs - 60_000);
  });

  it('a 400 for thousands of unknown keys names a few and counts the rest: what an error echoes is bounded', async () => {
    const body: Record<string, unknown> = { question: 'Why?' };
    for (let i = 0; i < 20_000; i++) body[`k${i}`] = 1;
    const res = await api('POST', '/v1/runs', body);
    expectErrorShape(res, 400, 'validation_failed');
    expect(res.text.length).toBeLessThan(4_000);
    const [issue] = res.json.details.issues;
    expect(issue).toMatchObject({ code: 'unrecognized_keys', keyCount: 20_000 });
    expect(issue.keys).toHaveLength(10);
    expect(issue.message).toMatch(/and 19990 more$/);
  });

  it("every error answer has the { error, message, details } shape: Fastify's and Node's own included", async () => {
    expectErrorShape(await api('POST', '/v1/runs', { question: 'x'.repeat(300 * 1024) }), 413, 'payload_too_large');
    expectErrorShape(await api('POST', '/v1/runs', '{"question": '), 400, 'bad_request');
    const longParam = await api('GET', `/v1/runs/${'a'.repeat(300)}`);
    expectErrorShape(longParam, 414, 'uri_too_long');
    expect(longParam.json.message.length).toBeLessThanOrEqual(1_000);
    expectErrorShape(await api('POST', '/v1/runs', '<a/>', { 'content-type': 'application/xml' }), 415, 'unsupported_media_type');
    expectErrorShape(await api('GET', '/v1/nothing-here'), 404, 'not_found');
    expectErrorShape(await api('DELETE', '/v1/runs'), 404, 'not_found');
    for (const [request, status, error] of [
      [`GET /v1/runs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'header_fields_too_large'],
      [`GET /v1/runs/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'header_fields_too_large'],
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'bad_request'],
    ] as const) {
      const res = parseRaw(await rawExchange(gw.url, request));
      expect({ status: res.status, error: res.json.error }).toEqual({ status, error });
      expect(Object.keys(res.json).sort()).toEqual(['details', 'error', 'message']);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it("the gateway's public port serves no metrics", async () => {
    const res = await client(gw.url)('GET', '/metrics');
    expectErrorShape(res, 404, 'not_found');
    expect(res.text).not.toMatch(/dossier_|process_cpu/);
    const doc = await client(gw.url)('GET', '/docs/openapi.json');
    expect(Object.keys(doc.json.paths)).not.toContain('/metrics');
    expect(doc.json.paths['/v1/collections/{id}/documents'].post.requestBody.content).toHaveProperty('multipart/form-data');
    expect(doc.json.paths['/v1/runs'].post.requestBody.content).not.toHaveProperty('multipart/form-data');
  });
});

describe('gateway security review: failed authentication is limited per client address', () => {
  let gw: Gateway;
  let key: string;

  beforeAll(async () => {
    // A budget of 3 failures that does not refill during the test: the counts below cannot depend on timing.
    // The harness connects over loopback: naming it a trusted proxy lets X-Forwarded-For stand for each client.
    gw = await startGateway({ env: { AUTH_FAILURE_RATE_PER_MINUTE: '0.0001', AUTH_FAILURE_BURST: '3', TRUST_PROXY: 'loopback' } });
    key = (await gw.tenant('guarded')).key;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  // TRUST_PROXY names loopback (above): X-Forwarded-For names the client.
  const from = (address: string, k?: string) => (method: string, url: string) =>
    client(gw.url, k)(method, url, undefined, { 'x-forwarded-for': address });

  it('401s until the address has failed too often, then 429 with Retry-After for that address only, valid key or not', async () => {
    const attacker = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await from(attacker, `dsk_000000000000_${'x'.repeat(43)}`)('GET', '/v1/runs')).status);
    expect(statuses).toEqual([401, 401, 401]);
    const limited = await from(attacker, 'not-a-key')('GET', '/v1/runs');
    expectErrorShape(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.json.details.reason).toBe('authentication_failures');
    // Refused before the key is looked up: a valid key from that address tells a guesser nothing either.
    expect((await from(attacker, key)('GET', '/v1/runs')).status).toBe(429);
    expect((await from(attacker)('GET', '/v1/runs')).status).toBe(429);
    // Another address is not affected.
    expect((await from('203.0.113.8', key)('GET', '/v1/runs')).status).toBe(200);
    expect((await from('203.0.113.8', 'not-a-key')('GET', '/v1/runs')).status).toBe(401);
  });
});
