import { client, startGateway, type Gateway } from './gateway-harness';

describe('gateway shutdown with open event streams', () => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw?.db.drop();
  });

  it('closing the app ends open SSE streams at once, so the server can stop and clients reconnect elsewhere', async () => {
    const { key } = await gw.tenant('closing');
    const run = (await client(gw.url, key)('POST', '/v1/runs', { question: 'Will this stream end on shutdown?' })).json.id;
    const res = await fetch(`${gw.url}/v1/runs/${run}/events`, { headers: { authorization: `Bearer ${key}` } });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: run_created')) text += new TextDecoder().decode((await reader.read()).value);
    const closed = gw.app.close();
    // The stream ends (done) instead of hanging until a timeout; the run itself is untouched by the shutdown.
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    await closed;
    expect(text).toMatch(/^id: 1$/m);
  });
});
