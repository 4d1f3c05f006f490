import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startChildService } from '@dossier/testing';
import { DesignBenchReport } from '../design-report';

const BENCH = path.resolve(__dirname, '../step-designs.ts');

/**
 * The designs bench itself, at a tiny size (its figures mean nothing here: the lead runs it full size on a quiet
 * machine): both designs run their chains to the end at one chain and at three, every counted hop was recorded (the
 * figures' counts), the hop that includes the next dequeue is not shorter than the hop to the next enqueue, and what
 * it printed is what it wrote.
 */
describe('npm run bench -- designs (tiny size)', () => {
  it('runs both designs at both sizes and writes figures that parse', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dossier-designs-bench-'));
    const json = path.join(dir, 'designs.json');
    const child = startChildService(BENCH, { BENCH_CHAINS: '3', BENCH_HOPS: '48', LOG_LEVEL: 'warn' }, 'designs bench', ['--json', json]);
    const exit = await child.exited;
    const out = child.output();
    expect({ exit: exit.code, out: exit.code === 0 ? '' : out }).toEqual({ exit: 0, out: '' });

    const report = DesignBenchReport.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(report.pid).toBe(child.pid);
    expect(report.designs.map((d) => `${d.design} ${d.chains}`)).toEqual(['bullmq 1', 'postgres 1', 'bullmq 3', 'postgres 3']);
    for (const d of report.designs) {
      expect(d.window.from).toBeGreaterThanOrEqual(report.window.from);
      expect(d.window.to).toBeLessThanOrEqual(report.window.to);
      // 48 hops at one chain (12 not counted), 16 per chain at three (4 per chain not counted).
      expect(d.hops.overhead.n).toBe(36);
      expect(d.hops.hop.n).toBe(d.hops.overhead.n);
      expect(d.hops.hop.p50).toBeGreaterThanOrEqual(d.hops.overhead.p50);
      expect(d.hops.cpuMicrosPerHop).toBeGreaterThan(0);
      expect(out).toContain(
        `${d.design.padEnd(8)} ${String(d.chains).padStart(2)} chain(s): dequeue → next enqueued p50 ${d.hops.overhead.p50} p90 ${d.hops.overhead.p90} p99 ${d.hops.overhead.p99} µs`,
      );
    }
  });
});
