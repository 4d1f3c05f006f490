/**
 * `npm run bench` (events): latency from the commit of a run event to its arrival at a connected SSE client,
 * through the gateway's LISTEN/NOTIFY feed (apps/gateway RunEventFeed). The real gateway on a test database; the
 * events are appended by RunEventRepository in transactions of their own, one at a time, each waited for at
 * the client before the next. Latency = arrival at the client − the moment the appending transaction had done
 * its last statement (its COMMIT goes next), in µs on this process's clock.
 */
import { loadavg } from 'node:os';
import { PrismaService, RunEventRepository } from '@dossier/db';
import { client, startGateway } from '../../apps/gateway/test/gateway-harness';
import { readSse } from '../../apps/gateway/test/sse-client';
import { micros } from './hop-marks';
import { runBench } from './run-bench';

const EVENTS = Number(process.env['BENCH_EVENTS'] ?? 200);

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  const gw = await startGateway();
  const prisma = new PrismaService({ url: gw.db.url, poolMax: 2 });
  const events = new RunEventRepository(prisma);
  const load = loadavg()[0]!;
  try {
    const { id: tenantId, key } = await gw.tenant('bench');
    const api = client(gw.url, key);
    const created = await api('POST', '/v1/runs', { question: 'How fast do run events reach a client?', options: { maxIterations: 1 } });
    const runId = created.json.id as string;
    const latencies: number[] = [];
    let committed = 0;
    let arrived!: () => void;
    const append = async (n: number): Promise<void> => {
      await prisma.$transaction(async (tx) => {
        await events.append(tx, tenantId, runId, [{ type: 'step_started', node: 'scope', iteration: 0, shard: n, attempt: 1 }]);
        committed = micros();
      });
    };
    let next = 0;
    let last = 0;
    const stream = readSse(`${gw.url}/v1/runs/${runId}/events`, key, {
      until: () => latencies.length >= EVENTS,
      onEvent: (e) => {
        if (e.event !== 'step_started' || (e.data as { data: { node: string } }).data.node !== 'scope') return;
        if (e.id <= last) return;
        last = e.id;
        latencies.push(micros() - committed);
        arrived();
      },
    });
    // The replay of what the run wrote at its start comes first; then one appended event at a time.
    await new Promise((r) => setTimeout(r, 500));
    for (next = 0; next < EVENTS;) {
      const got = new Promise<void>((r) => (arrived = r));
      await append(next);
      await got;
      next++;
    }
    await stream;
    const rows = latencies.slice(10);
    console.log(
      `\nRun event latency, commit → SSE client (LISTEN/NOTIFY; ${rows.length} events after 10 warm-up; load average ${load.toFixed(1)}; µs)`,
    );
    console.log('| measure | n | p50 | p90 | p99 |');
    console.log('|---|---|---|---|---|');
    console.log(`| commit → event at the client | ${rows.length} | ${pct(rows, 50)} | ${pct(rows, 90)} | ${pct(rows, 99)} |`);
  } finally {
    await prisma.$disconnect();
    await gw.close();
  }
}

runBench(main);
