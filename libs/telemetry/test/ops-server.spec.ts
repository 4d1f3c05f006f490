import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { register } from 'prom-client';
import { linksFromCarriers, registerQueueDepthSource, startOpsServer, type OpsServer } from '../src';

describe('ops server (/healthz, /readyz, /metrics)', () => {
  let ready = false;
  let server: OpsServer;
  const base = () => `http://127.0.0.1:${server.port}`;

  beforeAll(async () => {
    server = await startOpsServer({ port: 0, host: '127.0.0.1', ready: () => ready });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers /healthz always and /readyz only when ready', async () => {
    expect((await fetch(`${base()}/healthz`)).status).toBe(200);
    expect((await fetch(`${base()}/readyz`)).status).toBe(503);
    ready = true;
    expect((await fetch(`${base()}/readyz`)).status).toBe(200);
  });

  it('refuses other methods and paths', async () => {
    expect((await fetch(`${base()}/metrics`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base()}/admin`)).status).toBe(404);
  });

  it('serves the default registry, queue depths from every registered source', async () => {
    const remove = registerQueueDepthSource(async () => new Map([['writer', { waiting: 2, prioritized: 1, delayed: 4, active: 3 }]]));
    const res = await fetch(`${base()}/metrics`);
    expect(res.headers.get('content-type')).toBe(register.contentType);
    const text = await res.text();
    expect(text).toMatch(/^dossier_queue_backlog\{queue="writer"\} 7$/m);
    expect(text).toMatch(/^dossier_queue_jobs\{queue="writer",state="active"\} 3$/m);
    remove();
    expect(await (await fetch(`${base()}/metrics`)).text()).not.toMatch(/queue="writer"/);
  });

  it('a source that cannot read its queues fails the scrape instead of reporting zeros', async () => {
    const remove = registerQueueDepthSource(async () => {
      throw new Error('Redis unreachable');
    });
    const res = await fetch(`${base()}/metrics`);
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/Redis unreachable/);
    remove();
  });
});

describe('linksFromCarriers', () => {
  beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
  afterAll(() => propagation.disable());

  it('turns W3C carriers into span links and leaves out what is not a valid context', () => {
    const links = linksFromCarriers([
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      { traceparent: 'garbage' },
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01' },
    ]);
    expect(links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([
      ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331'],
      ['0af7651916cd43dd8448eb211c80319c', '00f067aa0ba902b7'],
    ]);
    expect(linksFromCarriers(undefined)).toEqual([]);
  });
});
