/**
 * `npm run bench -- hostile` (issue 30): `/healthz` latency of the gateway while it is fed hostile input — a gzip bomb
 * import, an archive with a 64 MiB string, an answer nested 200,000 deep, a 64 KiB PDF whose content inflates to
 * 64 MiB — against the same gateway idle. Each hostile request is sent ROUNDS times, one after another, while a probe
 * asks `/healthz` back to back; p50 / p99 / max of the probe's answers, and the hostile requests' own times and
 * statuses. The gateway runs in this process (as in the tests): its event loop is the one measured.
 */
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { flatePdf } from '@dossier/testing';
import { archiveFile, archiveOf } from '../../apps/gateway/test/fixtures/hand-made-archive';
import { client, startGateway } from '../../apps/gateway/test/gateway-harness';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function probeWhile(
  base: string,
  work: () => Promise<{ status: number }>,
): Promise<{ healthz: number[]; work: number[]; statuses: number[] }> {
  const healthz: number[] = [];
  const times: number[] = [];
  const statuses: number[] = [];
  let done = false;
  const anon = client(base);
  const probing = (async () => {
    while (!done) {
      const t = performance.now();
      await anon('GET', '/healthz');
      healthz.push(performance.now() - t);
    }
  })();
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    statuses.push((await work()).status);
    times.push(performance.now() - t);
  }
  done = true;
  await probing;
  return { healthz, work: times, statuses };
}

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS helper shared with jest's global setup
  const setup = require('../jest/global-setup.cjs') as () => Promise<void>;
  await setup();
  const gw = await startGateway({ env: { BODY_LIMIT_BYTES: String(1024 * 1024) } });
  const load = loadavg()[0]!;
  try {
    const { key } = await gw.tenant('bench');
    const api = client(gw.url, key);
    const collection = (await api('POST', '/v1/collections', { name: 'bench' })).json.id as string;
    const deep = JSON.stringify(archiveOf({ answerBody: { placeholder: true } })).replace(
      '{"placeholder":true}',
      `${'['.repeat(200_000)}1${']'.repeat(200_000)}`,
    );
    const cases: [string, () => Promise<{ status: number }>][] = [
      ['idle (a cheap authenticated GET)', () => api('GET', '/v1/me')],
      [
        'import: gzip bomb (0.5 MiB -> 512 MiB)',
        () => api('POST', '/v1/runs/import', { archive: gzipSync(Buffer.alloc(512 * 1024 * 1024, 0x20), { level: 9 }).toString('base64') }),
      ],
      [
        'import: 64 MiB report string',
        () => api('POST', '/v1/runs/import', { archive: archiveFile(archiveOf({ reportContent: 'A'.repeat(64 * 1024 * 1024) })) }),
      ],
      ['import: answer nested 200,000 deep', () => api('POST', '/v1/runs/import', { archive: archiveFile({ json: deep }) })],
      [
        'upload: PDF inflating to 64 MiB',
        () =>
          api('POST', `/v1/collections/${collection}/documents`, {
            filename: 'bomb.pdf',
            content: flatePdf(64 * 1024 * 1024).toString('base64'),
            encoding: 'base64',
          }),
      ],
    ];
    process.stdout.write(
      `\nhostile input: /healthz while the gateway is fed hostile requests (${ROUNDS} each; load ${load.toFixed(2)}, 2 shared cores)\n`,
    );
    process.stdout.write('| case | statuses | request p50 ms | /healthz n | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|\n');
    for (const [name, work] of cases) {
      const r = await probeWhile(gw.url, work);
      process.stdout.write(
        `| ${name} | ${[...new Set(r.statuses)].join(',')} | ${pct(r.work, 50).toFixed(0)} | ${r.healthz.length} | ${pct(r.healthz, 50).toFixed(1)} | ${pct(r.healthz, 99).toFixed(1)} | ${Math.max(...r.healthz).toFixed(1)} |\n`,
      );
    }
  } finally {
    await gw.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
    process.exit(1);
  },
);
