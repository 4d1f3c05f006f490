import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SequencedEvent } from '@dossier/contracts';
import { followEvents } from '../src/event-stream';
import { GatewayHttp, GatewayRequestError } from '../src/gateway-http';

/**
 * A gateway that answers `503 service_unavailable` for a moment (its database restarting, as in the chaos soak)
 * must not end `dossier … --api` while the run goes on: the follower retries 5xx and 429 like a dropped
 * connection, and resumes after the last event. A 4xx still ends it at once.
 */
describe('followEvents against a gateway that is briefly unavailable', () => {
  let server: Server;
  let url: string;
  let unavailable = 0;
  let status = 503;
  let runStatus = 'running';
  const lastEventIds: (string | undefined)[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/v1/runs/r1') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: runStatus }));
        return;
      }
      lastEventIds.push(req.headers['last-event-id'] as string | undefined);
      if (lastEventIds.length === 2 && unavailable < 2) {
        unavailable++;
        lastEventIds.pop();
        res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: 'service_unavailable', message: 'try again shortly', details: null }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const from = Number(req.headers['last-event-id'] ?? 0);
      const frame = (id: number, data: { type: string }) =>
        `id: ${id}\nevent: ${data.type}\ndata: ${JSON.stringify({ seq: id, data })}\n\n`;
      if (from === 0)
        res.write(frame(1, { type: 'run_created', question: 'q' } as { type: string })); // then the connection breaks
      else {
        res.write(frame(2, { type: 'run_completed' }));
        runStatus = 'completed';
      }
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('retries through 503s and receives every event once', async () => {
    const seen: SequencedEvent[] = [];
    await followEvents(new GatewayHttp(url, 'k'), 'r1', async (e) => {
      seen.push(e);
    });
    expect(unavailable).toBe(2);
    expect(seen.map((e) => [e.seq, e.data.type])).toEqual([
      [1, 'run_created'],
      [2, 'run_completed'],
    ]);
    expect(lastEventIds).toEqual([undefined, '1']);
  });

  it('a 4xx ends the follow at once', async () => {
    unavailable = 0;
    status = 404;
    runStatus = 'running';
    lastEventIds.length = 0;
    await expect(followEvents(new GatewayHttp(url, 'k'), 'r1', async () => undefined)).rejects.toBeInstanceOf(GatewayRequestError);
  });
});
