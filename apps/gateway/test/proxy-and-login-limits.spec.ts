import { ADMIN_KEY, client, startGateway, type Gateway } from './gateway-harness';

/**
 * Issue 30, item 5: proxies are trusted only when TRUST_PROXY names them, wrong admin keys count as failed logins,
 * and a Last-Event-ID is a seq written in digits. Each test also checks that others are not affected.
 */
describe('security round 2: proxies, failed logins on the queue dashboard, Last-Event-ID', () => {
  let gw: Gateway;
  let key: string;

  beforeAll(async () => {
    // A budget of 5 failures that does not refill during the test: the counts below cannot depend on timing.
    gw = await startGateway({ env: { AUTH_FAILURE_RATE_PER_MINUTE: '0.0001', AUTH_FAILURE_BURST: '5' } });
    key = (await gw.tenant('limited')).key;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it('with TRUST_PROXY unset, X-Forwarded-For names no one: 60 wrong keys, each "from" its own address, are limited as one client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await client(gw.url, `dsk_000000000000_${'y'.repeat(43)}`)('GET', '/v1/me', undefined, {
        'x-forwarded-for': `198.51.100.${i + 1}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array(55).fill(429));
    const last = await client(gw.url, key)('GET', '/v1/me', undefined, { 'x-forwarded-for': '198.51.100.200' });
    expect(last.status).toBe(429);
    expect(last.json).toMatchObject({ error: 'rate_limited', details: { reason: 'authentication_failures' } });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Health is not behind the limit.
    expect((await client(gw.url)('GET', '/healthz')).status).toBe(200);
  });
});

describe('security round 2: the queue dashboard counts wrong admin keys', () => {
  let gw: Gateway;
  let key: string;

  beforeAll(async () => {
    gw = await startGateway({ env: { AUTH_FAILURE_RATE_PER_MINUTE: '0.0001', AUTH_FAILURE_BURST: '5', TRUST_PROXY: 'loopback' } });
    key = (await gw.tenant('dashboard')).key;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  const from = (address: string, authorization?: string) => (url: string) =>
    client(gw.url)('GET', url, undefined, { 'x-forwarded-for': address, ...(authorization ? { authorization } : {}) });

  it('40 wrong admin keys: 401 while the address has budget, then 429 before the key is compared, the right key included', async () => {
    const attacker = '203.0.113.40';
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await from(attacker, `Bearer wrong-admin-key-${i}`)('/admin/queues/api/queues')).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array(35).fill(429));
    const refused = await from(attacker, `Bearer ${ADMIN_KEY}`)('/admin/queues/api/queues');
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ error: 'rate_limited', details: { reason: 'authentication_failures' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The same budget as /v1's keys: that address is refused there too.
    expect((await client(gw.url, key)('GET', '/v1/me', undefined, { 'x-forwarded-for': attacker })).status).toBe(429);
    // Another address: a wrong key is a 401 with the Basic challenge (a browser asks), the right one opens the dashboard.
    const wrong = await from('203.0.113.41')('/admin/queues');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(wrong.json).toMatchObject({ error: 'unauthorized' });
    const ok = await from('203.0.113.41', `Bearer ${ADMIN_KEY}`)('/admin/queues/api/queues');
    expect(ok.status).toBe(200);
    expect(ok.json.queues.length).toBe(7);
  });

  it('Last-Event-ID and ?lastEventId= accept decimal digits only: 0x10, 1e1, -1, 1.0, " 1" are 400s naming the part', async () => {
    const api = client(gw.url, key);
    const run = await api('POST', '/v1/runs', { question: 'Does the stream read its resume point strictly?' });
    expect(run.status).toBe(201);
    const events = `${gw.url}/v1/runs/${run.json.id}/events`;
    // The stream of a run that waits in its queue never ends: read the head only, then let go.
    const head = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, ...headers } });
      const body = res.headers.get('content-type')?.startsWith('application/json') ? ((await res.json()) as any) : undefined;
      if (!body) await res.body?.cancel();
      return { status: res.status, body, type: res.headers.get('content-type') };
    };
    // (fetch and Node's HTTP parser trim a header's outer spaces, so " 1" can only arrive as a query value.)
    for (const bad of ['0x10', '1e1', '-1', '1.0', '+1', '1 2', '99999999999']) {
      const res = await head(events, { 'last-event-id': bad });
      expect({ bad, status: res.status, error: res.body?.error, part: res.body?.details?.part }).toEqual({
        bad,
        status: 400,
        error: 'validation_failed',
        part: 'header',
      });
    }
    for (const bad of ['0x10', '%201', '1%20', '']) {
      const res = await head(`${events}?lastEventId=${bad}`);
      expect({ bad, status: res.status, part: res.body?.details?.part }).toEqual({ bad, status: 400, part: 'query' });
    }
    // Digits still resume: the stream opens.
    const ok = await head(events, { 'last-event-id': '1' });
    expect(ok).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/event-stream/) });
    expect((await head(`${events}?lastEventId=0`)).status).toBe(200);
  });
});
