import { formatNodeWork, formatThroughput, ModelBenchReport, type Throughput } from '../model-report';
import { inclusiveTimes, windowProfile, type CpuProfile } from '../cpu-profile';

const throughput: Throughput = {
  runs: 8,
  workerConcurrency: 1,
  aloneSeconds: 14.2,
  batches: [
    {
      processesPerService: 1,
      seconds: 40.5,
      runsPerMinute: 11.85,
      completedSeconds: [12, 16, 20, 24, 28, 32, 36, 40.5],
      steadyRunsPerMinute: (7 / 28.5) * 60,
      serverDelayP50: 3,
      serverDelayP90: 9,
    },
    {
      processesPerService: 2,
      seconds: 22.1,
      runsPerMinute: 21.72,
      completedSeconds: [10, 11.5, 13, 14.5, 16, 17.5, 19, 22.1],
      steadyRunsPerMinute: (7 / 12.1) * 60,
      serverDelayP50: 4,
      serverDelayP90: 12,
    },
  ],
  gain: 21.72 / 11.85,
  steadyGain: 28.5 / 12.1,
  sustained: [
    { processesPerService: 1, inFlight: 8, warmupRuns: 8, measuredRuns: 8, windowSeconds: 32, runsPerMinute: 15 },
    { processesPerService: 2, inFlight: 8, warmupRuns: 8, measuredRuns: 8, windowSeconds: 16.5, runsPerMinute: (8 / 16.5) * 60 },
  ],
  sustainedGain: 32 / 16.5,
};

const report = {
  latencyMs: 500,
  singles: {
    workerConcurrency: 'default (8)',
    runs: [
      { modelCalls: 29, wallMs: 14_000, criticalPathMs: 11_000, ratio: 14 / 11, fanOuts: [{ group: 'retrieve.0', shards: 8, skewMs: 18 }] },
    ],
    ratioMedian: 14 / 11,
    skewP50: 18,
    skewMax: 18,
    steps: 42,
    dispatchWait: { p50: 21, p90: 41 },
    nonModelWork: { p50: 115, p90: 357 },
    cpuMsPerStep: 61.5,
    pgTransactionsPerStep: 14.2,
    byNode: [{ node: 'retrieve', steps: 11, p50: 300, max: 420, totalMs: 3300 }],
  },
  throughput,
  load: [1.2, 2.5, 2.9],
};

/** The model bench's figures (`npm run bench -- model --json`): what the lead compares runs of it by. */
describe('npm run bench -- model: its figures', () => {
  it('parse, with the throughput batch and the worker concurrency that bound it', () => {
    const parsed = ModelBenchReport.parse(JSON.parse(JSON.stringify(report)));
    expect(parsed.throughput).toMatchObject({ runs: 8, workerConcurrency: 1 });
    expect(parsed.throughput!.batches.map((b) => b.processesPerService)).toEqual([1, 2]);
    // Two batches, no more and no fewer; a gain is a positive number.
    expect(() => ModelBenchReport.parse({ ...report, throughput: { ...throughput, batches: [throughput.batches[0]] } })).toThrow();
    expect(() => ModelBenchReport.parse({ ...report, throughput: { ...throughput, gain: 0 } })).toThrow();
    // The throughput part is optional (BENCH_MODEL_BATCH=0).
    expect(ModelBenchReport.parse({ ...report, throughput: undefined }).throughput).toBeUndefined();
  });

  it('prints what it wrote: the batch, the concurrency, each batch row and the gain', () => {
    const text = formatThroughput(throughput, 500);
    expect(text).toContain('8 runs submitted at once; worker concurrency 1 per service process; 500 ms per model request');
    expect(text).toContain('one run alone on these services: 14.2 s');
    const rows = [...text.matchAll(/^\| (\d) \| ([\d.]+) \| ([\d.]+) \| (\d+) \/ (\d+) \| ([\d.]+) \|$/gm)].map((m) =>
      m.slice(1).map(Number),
    );
    expect(rows).toEqual([
      [1, 40.5, 11.85, 3, 9, 14.74],
      [2, 22.1, 21.72, 4, 12, 34.71],
    ]);
    expect(text).toContain('completed (s), 2 per service: 10.0, 11.5, 13.0, 14.5, 16.0, 17.5, 19.0, 22.1');
    expect(Number(/2 vs 1: ([\d.]+)x/.exec(text)?.[1])).toBeCloseTo(throughput.gain, 2);
    expect(Number(/2 vs 1 from the first completion to the last \(the batch's fill left out\): ([\d.]+)x/.exec(text)?.[1])).toBeCloseTo(
      throughput.steadyGain!,
      2,
    );
    // A report of an earlier bench (no completions, no steady pace) still parses and prints.
    const earlier: Throughput = {
      ...throughput,
      batches: throughput.batches.map(({ completedSeconds: _c, steadyRunsPerMinute: _s, ...b }) => b) as Throughput['batches'],
      steadyGain: undefined,
    };
    expect(ModelBenchReport.parse({ ...report, throughput: earlier }).throughput?.steadyGain).toBeUndefined();
    expect(formatThroughput(earlier, 500)).not.toContain('first completion to the last');
    expect(formatNodeWork(report.singles.byNode)).toContain('| retrieve | 11 | 300 | 420 | 3300 |');
  });

  it('print the sustained load as written, and parse a report without it (BENCH_MODEL_SUSTAINED=0, earlier benches)', () => {
    const text = formatThroughput(throughput, 500);
    expect(text).toContain(
      'Sustained load (8 runs kept in flight, a completed run replaced at once; the pace over 8 completions after the first 8)',
    );
    const rows = [...text.matchAll(/^\| (\d) \| ([\d.]+) \| ([\d.]+) \|$/gm)].map((m) => m.slice(1).map(Number));
    expect(rows).toEqual([
      [1, 32, 15],
      [2, 16.5, 29.09],
    ]);
    expect(Number(/2 vs 1 under a sustained load: ([\d.]+)x/.exec(text)?.[1])).toBeCloseTo(throughput.sustainedGain!, 2);
    // One load alone is not a comparison.
    expect(() => ModelBenchReport.parse({ ...report, throughput: { ...throughput, sustained: [throughput.sustained![0]] } })).toThrow();
    const without: Throughput = { ...throughput, sustained: undefined, sustainedGain: undefined };
    expect(ModelBenchReport.parse({ ...report, throughput: without }).throughput?.sustained).toBeUndefined();
    expect(formatThroughput(without, 500)).not.toContain('Sustained load');
  });
});

/** A profile by hand: root → handler → prompt (10 ms at t=1 ms), root → handler (5 ms at t=20 ms), idle (5 ms at t=40 ms). */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 }, children: [2, 4] },
    {
      id: 2,
      callFrame: { functionName: 'execute', url: 'file:///r/libs/stages/writer/src/x.ts', lineNumber: 9, columnNumber: 0 },
      children: [3],
    },
    { id: 3, callFrame: { functionName: 'buildPrompt', url: 'file:///r/libs/agents/src/p.ts', lineNumber: 0, columnNumber: 0 } },
    { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1, columnNumber: -1 } },
  ],
  startTime: 0,
  endTime: 50_000,
  samples: [3, 2, 4],
  timeDeltas: [1_000, 19_000, 20_000],
};

describe('cpu-profile: a window of a profile, and our functions by inclusive time', () => {
  it('keeps the samples taken inside the window only', () => {
    expect(windowProfile(profile, 0, 10_000).samples).toEqual([3]);
    expect(windowProfile(profile, 10_000, 50_000).samples).toEqual([2, 4]);
    expect(windowProfile(profile, 30_000, 35_000).samples).toEqual([]);
  });

  it('charges a sample to every own function on its stack', () => {
    const times = inclusiveTimes(profile);
    expect(times.map((t) => [t.fn, t.selfMs])).toEqual([
      ['execute (libs/stages/writer/src/x.ts:10)', 20],
      ['buildPrompt (libs/agents/src/p.ts:1)', 1],
    ]);
  });
});
