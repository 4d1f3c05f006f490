import { startTcpProxy, type TcpProxy } from '@dossier/testing';
import { client, QUESTION, startGateway, type Gateway } from './gateway-harness';

const ADMIN_URL = new URL(process.env['TEST_ADMIN_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres');

/**
 * Postgres goes away under a running gateway (found by the chaos soak, where a Postgres restart gave clients
 * `500 internal_error`): requests get `503 service_unavailable` with Retry-After, the typed answer a client
 * retries on, and the gateway serves again as soon as the database is back, without a restart.
 */
describe('gateway while its database is unreachable', () => {
  let proxy: TcpProxy;
  let gw: Gateway;
  let key: string;

  beforeAll(async () => {
    proxy = await startTcpProxy(ADMIN_URL.hostname, Number(ADMIN_URL.port || 5432));
    gw = await startGateway({ databasePort: proxy.port });
    ({ key } = await gw.tenant('outage'));
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await proxy?.close();
  });

  it('answers 503 with Retry-After (never 500) while Postgres is cut off, and 200 again once it is back', async () => {
    const api = client(gw.url, key);
    expect((await api('GET', '/v1/runs')).status).toBe(200);

    proxy.cut();
    for (const [method, url, body] of [
      ['GET', '/v1/runs', undefined],
      ['POST', '/v1/runs', { question: QUESTION }],
      ['GET', '/v1/runs/00000000-0000-4000-8000-000000000000', undefined],
    ] as const) {
      const reply = await api(method, url, body, { 'idempotency-key': 'outage-1' });
      expect({ url, status: reply.status, body: reply.json }).toEqual({
        url,
        status: 503,
        body: { error: 'service_unavailable', message: expect.stringMatching(/try again/), details: null },
      });
      expect(reply.headers.get('retry-after')).toBe('2');
    }

    proxy.restore();
    const created = await api('POST', '/v1/runs', { question: QUESTION }, { 'idempotency-key': 'outage-1' });
    expect(created.status).toBe(201);
    expect((await api('GET', `/v1/runs/${created.json.id}`)).status).toBe(200);
  }, 60_000);
});
