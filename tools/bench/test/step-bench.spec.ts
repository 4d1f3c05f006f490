import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startChildService } from '@dossier/testing';
import { readProfile, summariseProfile } from '../cpu-profile';
import { SEGMENTS } from '../step-marks';
import { StepBenchReport, type Window } from '../step-report';

const BENCH = path.resolve(__dirname, '../step-overhead.ts');

const within = (inner: Window, outer: Window): boolean => inner.from >= outer.from && inner.to <= outer.to;

/**
 * The step bench itself, at a tiny size (its figures mean nothing here: the lead runs it full size on a quiet machine):
 * it runs to the end, its JSON parses, what it prints is what it wrote, the floors of each concurrency were measured
 * in the same run just before the engine they are compared with, and `--cpu-prof` leaves a profile per window.
 */
describe('npm run bench -- steps (tiny size)', () => {
  it('writes figures that parse, floors measured in the same run, and CPU profiles of the engine windows', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dossier-step-bench-'));
    const json = path.join(dir, 'steps.json');
    const child = startChildService(
      BENCH,
      { BENCH_RUNS: '2', BENCH_HOPS: '40', BENCH_COMMITS: '40', BENCH_SKIP_KILL: '1', LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true' },
      'step bench',
      ['--json', json, '--cpu-prof', '--cpu-prof-dir', path.join(dir, 'profiles')],
    );
    const exit = await child.exited;
    const out = child.output();
    expect({ exit: exit.code, out: exit.code === 0 ? '' : out }).toEqual({ exit: 0, out: '' });

    const report = StepBenchReport.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(report.pid).toBe(child.pid);
    expect(report.settings.profiled).toBe(true);
    expect(report.concurrency.map((c) => c.runsAtOnce)).toEqual([1, 2]);
    for (const c of report.concurrency) {
      // Measured in this run, the floors first and then the engine they are compared with.
      expect(within(c.floors.window, report.window)).toBe(true);
      expect(within(c.engine.window, report.window)).toBe(true);
      expect(c.floors.window.to).toBeLessThanOrEqual(c.engine.window.from);
      expect(c.engine.runs).toBe(2);
      // Two runs of an empty workflow with fan-outs: dozens of steps, each costing some CPU.
      expect(c.engine.steps).toBeGreaterThan(20);
      expect(c.engine.cpuMicrosPerStep).toBeGreaterThan(0);
      // The runs' starts are measured apart (the queues paused meanwhile) and taken out of the steps' CPU.
      expect(c.engine.runStartCpuMicros).toBeGreaterThan(0);
      // Every step starts on Postgres and enqueues or completes on Redis; the bench's own wait stays a few queries per run.
      expect(c.engine.socketWritesPerStep.postgres).toBeGreaterThanOrEqual(1);
      expect(c.engine.socketWritesPerStep.redis).toBeGreaterThanOrEqual(1);
      expect(c.engine.benchQueries).toBeLessThan(c.engine.steps / 2);
      expect(c.ratio.p50).toBeCloseTo(c.engine.overhead.p50 / (c.floors.commit.p50 + c.floors.enqueue.p50), 1);

      // What it printed is what it wrote.
      const heading = c.runsAtOnce === 1 ? 'one run at a time' : `${c.runsAtOnce} runs at once`;
      const section = out.slice(out.indexOf(`Step overhead, ${heading}`));
      const row = (name: string): number[] => {
        const m = new RegExp(`\\| ${name} \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|`).exec(section);
        if (!m) throw new Error(`no row "${name}" after "${heading}" in:\n${out}`);
        return m.slice(1).map(Number);
      };
      const p = (v: { n: number; p50: number; p90: number; p99: number }) => [v.n, v.p50, v.p90, v.p99];
      expect(row('engine step: dequeue → commit → next enqueued')).toEqual(p(c.engine.overhead));
      expect(row('bare Postgres: one-row INSERT committed')).toEqual(p(c.floors.commit));
      expect(row('bare BullMQ: dequeue → next enqueued')).toEqual(p(c.floors.enqueue));
      expect(section).toContain(`engine CPU per step: ${c.engine.cpuMicrosPerStep} µs`);
      expect(section).toContain(`the runs' starts taken out: ${c.engine.runStartCpuMicros} µs each`);
      expect(section).toContain(`socket writes per step: ${c.engine.socketWritesPerStep.postgres} to Postgres`);

      // Where the time goes: every measured step passed every mark (a wrapper that no longer sees its method leaves steps
      // out), single steps and shards apart, each segment in the path's order, printed as written.
      const segments = c.engine.segments ?? [];
      expect(segments.map((s) => s.kind).sort()).toEqual(['shard', 'single']);
      expect(segments.reduce((n, s) => n + s.n, 0)).toBe(c.engine.overhead.n);
      for (const s of segments) {
        expect(s.parts.map((p) => p.segment)).toEqual(SEGMENTS.map((d) => d.segment));
        for (const part of s.parts) expect(part.p90).toBeGreaterThanOrEqual(part.p50);
      }
      for (const [i, { segment }] of SEGMENTS.entries()) {
        const cells = segments.map((s) => `${s.parts[i]!.p50} / ${s.parts[i]!.p90}`).join(' | ');
        expect(section).toContain(`| ${segment} | ${cells} |`);
      }
    }

    expect(report.profiles.map((p) => p.runsAtOnce)).toEqual([1, 2]);
    for (const p of report.profiles) {
      expect(existsSync(p.file)).toBe(true);
      const summary = summariseProfile(readProfile(p.file));
      expect(summary.busyMs).toBeGreaterThan(0);
      // The step runner is on the stack of the profiled window's work.
      expect(summary.categories.find((c) => c.category === 'engine: libs/workflow')?.onStackMs).toBeGreaterThan(0);
    }
    expect(out).toMatch(/CPU profile: 1 run\(s\) at once/);
  });
});
