import path from 'node:path';
import { FANOUT_NODES, SERVICE_NAMES, stepKey, type NodeName } from '@dossier/contracts';
import { StepQueues } from '@dossier/queue';
import { startChildService, startOtlpReceiver, waitFor, type ChildService, type OtlpReceiver, type ReceivedSpan, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, processEnv, startEngine, uniquePrefix, type TestEngine } from '../fixtures/engine';
import { completedSteps, waitForStatus } from '../fixtures/run-queries';

const CLIENT = path.join(__dirname, '../fixtures/traced-client.ts');
const TRACED_WORKER = path.join(__dirname, '../fixtures/traced-worker.ts');
const CONDUCTOR = path.resolve(__dirname, '../../../../apps/conductor/src/main.ts');

/**
 * One run, one trace: the client (this test, as the gateway or CLI would) starts a run inside its own
 * span; the conductor and one process per stage service (test handlers) export OTLP/HTTP JSON to a
 * receiver in this test. Redis "loses" the first job so the conductor re-enqueues it, which puts the
 * conductor in the run's trace as it would be after a real Redis loss.
 */
describe('tracing across service processes (OTLP to a receiver in the test)', () => {
  let db: TestDatabase;
  let receiver: OtlpReceiver;
  let producer: TestEngine | undefined;
  const children: ChildService[] = [];

  beforeAll(async () => {
    db = await prepareDatabase();
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    for (const c of children.splice(0)) {
      c.kill('SIGKILL');
      await c.exited;
    }
    await producer?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('gives a run one trace id across client, conductor and every stage service; steps carry run attributes; joins link every shard', async () => {
    const prefix = uniquePrefix('trace');
    const otel = {
      OTEL_SDK_DISABLED: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    const env = processEnv(db, prefix, { ...otel, TEST_SCRIPT: JSON.stringify({ queries: 3, sources: 2, sections: 2 }) });

    producer = await startEngine(db, prefix, []);
    const conductor = startChildService(CONDUCTOR, { ...env, OTEL_SERVICE_NAME: 'dossier-conductor', RECONCILE_INTERVAL_MS: '300' }, 'conductor');
    children.push(conductor);
    await conductor.waitForOutput(/conductor ready/, 60_000);

    // The client (as the gateway or CLI): its own process, starting the run inside its span.
    const client = startChildService(CLIENT, { ...env, OTEL_SERVICE_NAME: 'dossier-test-client' }, 'client');
    children.push(client);
    const line = await client.waitForOutput(/CLIENT \{.*\}/, 60_000);
    expect((await client.exited).code).toBe(0);
    const { runId, traceId: clientTraceId } = JSON.parse(line.slice('CLIENT '.length)) as { runId: string; traceId: string };
    const run = { id: runId };

    // Redis loses the first step's job before any worker took it; the conductor's reconciliation restores it.
    const first = { runId: run.id, node: 'scope' as NodeName, iteration: 0, shard: 0 };
    const queues = producer.app.get(StepQueues);
    expect(await queues.state(first)).toBe('waiting');
    await queues.queue('planner').remove(stepKey(first));
    await waitFor('the conductor to re-enqueue the lost job', async () => (await queues.state(first)) === 'waiting', 30_000, 100);

    for (const service of SERVICE_NAMES) {
      const child = startChildService(TRACED_WORKER, { ...env, TEST_SERVICES: service, OTEL_SERVICE_NAME: `dossier-${service}`, TEST_SERVICE_NAME: service }, service);
      children.push(child);
    }
    await waitForStatus(db.url, run.id, 'completed', 120_000);
    const steps = await completedSteps(db.url, run.id);

    // A clean stop flushes each process's spans.
    for (const c of children.splice(0)) {
      c.kill('SIGTERM');
      expect((await c.exited).code).toBe(0);
    }

    const spans = receiver.spans();
    const inTrace = spans.filter((s) => s.traceId === clientTraceId);
    const services = new Set(inTrace.map((s) => s.service));
    expect(inTrace.find((s) => s.service === 'dossier-test-client' && s.name === 'client: start research')?.parentSpanId).toBe('');
    expect([...services].sort()).toEqual(expect.arrayContaining(['dossier-test-client', 'dossier-conductor', ...SERVICE_NAMES.map((s) => `dossier-${s}`)]));

    // The conductor's repair is in the trace, and the restored step is its child.
    const reconciles = inTrace.filter((s) => s.service === 'dossier-conductor' && s.name === 'reconcile scope');
    expect(reconciles.length).toBeGreaterThan(0);
    const stepSpans = spans.filter((s) => s.name.startsWith('step ') && s.attributes['dossier.run_id'] === run.id);
    const scope = stepSpans.find((s) => s.attributes['dossier.node'] === 'scope');
    expect(reconciles.map((r) => r.spanId)).toContain(scope?.parentSpanId);

    // Every step of the run is a span in the one trace, with the run attributes.
    expect(stepSpans.every((s) => s.traceId === clientTraceId)).toBe(true);
    const spanKeys = new Set(stepSpans.map((s) => stepKey({ runId: run.id, node: s.attributes['dossier.node'] as NodeName, iteration: Number(s.attributes['dossier.iteration']), shard: Number(s.attributes['dossier.shard']) })));
    expect([...spanKeys].sort()).toEqual(steps);
    for (const s of stepSpans) {
      expect(s.attributes).toEqual(expect.objectContaining({ 'dossier.run_id': run.id, 'dossier.node': expect.any(String), 'dossier.iteration': expect.any(Number), 'dossier.shard': expect.any(Number), 'dossier.attempt': expect.any(Number) }));
      expect(s.service).toMatch(/^dossier-/);
    }

    // Postgres and Redis calls made inside steps are spans of the same trace.
    expect(inTrace.some((s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql')).toBe(true);
    expect(inTrace.some((s) => s.attributes['db.system'] === 'redis' || s.attributes['db.system.name'] === 'redis')).toBe(true);

    // Joins: the steps decided by a fan-out's last shard link to the span of every shard.
    const byId = new Map(stepSpans.map((s) => [s.spanId, s]));
    let joins = 0;
    for (const node of FANOUT_NODES) {
      const groups = new Map<number, ReceivedSpan[]>();
      for (const s of stepSpans.filter((x) => x.attributes['dossier.node'] === node && x.statusCode !== 2)) {
        const it = Number(s.attributes['dossier.iteration']);
        groups.set(it, [...(groups.get(it) ?? []), s]);
      }
      for (const [iteration, shards] of groups) {
        const shardIds = new Set(shards.map((s) => s.spanId));
        const join = stepSpans.filter((s) => s.links.some((l) => shardIds.has(l.spanId)));
        expect(join.length).toBeGreaterThan(0);
        for (const j of join) {
          const linked = j.links.map((l) => byId.get(l.spanId));
          expect(linked.every((l) => l?.attributes['dossier.node'] === node && Number(l.attributes['dossier.iteration']) === iteration)).toBe(true);
          expect(new Set(linked.map((l) => l?.attributes['dossier.shard'])).size).toBe(new Set(shards.map((s) => s.attributes['dossier.shard'])).size);
          expect(j.links.every((l) => l.traceId === clientTraceId)).toBe(true);
        }
        joins++;
      }
    }
    // retrieve (3 shards), extract (2), draft (2), verify (2): each joined at least once.
    expect(joins).toBeGreaterThanOrEqual(FANOUT_NODES.length);
  }, 240_000);
});
