import path from 'node:path';
import { startOtlpReceiver, type ChildService, type OtlpReceiver, type TestDatabase } from '@dossier/testing';
import { prepareDatabase, startEngine } from '../fixtures/engine';
import { expectOneTracePerRun, traceOneRun } from '../fixtures/trace-run';

const TRACED_WORKER = path.join(__dirname, '../fixtures/traced-worker.ts');

/**
 * One run, one trace, with the engine's test handlers in one process per stage service (fast, with exact
 * fan-out sizes): client, conductor and every stage export OTLP/HTTP JSON to a receiver in this test.
 * tracing-services.spec.ts does the same with the real stage services on a real research job.
 */
describe('tracing across service processes (test handlers, OTLP to a receiver in the test)', () => {
  let db: TestDatabase;
  let receiver: OtlpReceiver;
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
    await receiver?.close();
    await db?.drop();
  });

  it('gives a run one trace id across client, conductor and every stage service; steps carry run attributes; joins link every shard', async () => {
    const traced = await traceOneRun({
      db,
      receiver,
      children,
      producer: (prefix) => startEngine(db, prefix, []),
      env: { TEST_SCRIPT: JSON.stringify({ queries: 3, sources: 2, sections: 2 }) },
      stage: (service) => ({ entry: TRACED_WORKER, env: { TEST_SERVICES: service, TEST_SERVICE_NAME: service } }),
    });
    const { stepSpans } = expectOneTracePerRun(traced);
    // Exact fan-out sizes of the script: the retrieve join links 3 shards, the extract join 2.
    const joinOf = (node: string) =>
      stepSpans.find(
        (s) =>
          s.links.length > 0 && s.links.every((l) => stepSpans.find((x) => x.spanId === l.spanId)?.attributes['dossier.node'] === node),
      );
    expect(joinOf('retrieve')?.links).toHaveLength(3);
    expect(joinOf('extract')?.links).toHaveLength(2);
  });
});
