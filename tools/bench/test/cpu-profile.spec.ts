import { categoryOf, formatSummary, mergeProfiles, summariseProfile, type CpuProfile, type ProfileNode } from '../cpu-profile';

const node = (id: number, functionName: string, url: string, children: number[] = []): ProfileNode => ({
  id,
  callFrame: { functionName, url, lineNumber: 9, columnNumber: 0 },
  children,
});

/**
 * root → runStep (libs/workflow) → $transaction (Prisma) → query (pg) → writev (Node) ; runStep → parse (zod) ;
 * root → (idle) ; root → (garbage collector).
 */
const profile: CpuProfile = {
  nodes: [
    node(1, '(root)', '', [2, 6, 7]),
    node(2, 'runStep', 'file:///repo/libs/workflow/src/runner/step-runner.ts', [3, 5]),
    node(3, '$transaction', 'file:///repo/node_modules/@prisma/client/runtime/client.js', [4]),
    node(4, 'query', 'file:///repo/node_modules/pg/lib/client.js', [8]),
    node(5, 'parse', 'file:///repo/node_modules/zod/v4/core/parse.js'),
    node(6, '(idle)', ''),
    node(7, '(garbage collector)', ''),
    node(8, 'writev', ''),
  ],
  startTime: 0,
  endTime: 10_000,
  // µs per sample: runStep 1000, $transaction 2000, query 3000, parse 1000, idle 2000, gc 1000, writev 500.
  samples: [2, 3, 4, 4, 5, 6, 7, 4, 8],
  timeDeltas: [1000, 2000, 1000, 1000, 1000, 2000, 1000, 1000, 500],
};

describe('summariseProfile', () => {
  it('sorts frames into the step path categories by where their code lives', () => {
    const cat = (url: string, fn = 'f') => categoryOf({ functionName: fn, url, lineNumber: 0, columnNumber: 0 });
    expect(cat('file:///r/node_modules/@prisma/client-engine-runtime/dist/index.js')).toBe('prisma');
    expect(cat('/r/libs/db/src/generated/prisma/internal/class.ts')).toBe('prisma');
    expect(cat('/r/libs/db/src/repositories/run.repository.ts')).toBe('repositories: libs/db');
    expect(cat('/r/node_modules/pg-protocol/dist/parser.js')).toBe('pg driver');
    expect(cat('/r/node_modules/@nestjs/microservices/server/server.js')).toBe('nest pipeline');
    expect(cat('/r/node_modules/rxjs/dist/cjs/internal/Observable.js')).toBe('nest pipeline');
    expect(cat('/r/node_modules/bullmq/dist/cjs/classes/worker.js')).toBe('bullmq / redis');
    expect(cat('/r/node_modules/pino/lib/proto.js')).toBe('logging');
    expect(cat('/r/libs/telemetry/src/logger.ts')).toBe('logging');
    expect(cat('/r/node_modules/@opentelemetry/api/build/src/trace/NoopTracer.js')).toBe('tracing / metrics');
    expect(cat('/r/libs/stages/claims/src/claims.handler.ts')).toBe("handlers' own work");
    expect(cat('node:internal/process/task_queues')).toBe('node internals');
    expect(cat('', 'JSONParse')).toBe('node internals');
    expect(cat('/r/node_modules/lodash/lodash.js')).toBe('other libraries');
  });

  it('adds self time per category and per function, and on-stack time through the ancestors; idle is left out of the shares', () => {
    const s = summariseProfile(profile);
    expect(s.totalMs).toBe(10.5);
    expect(s.busyMs).toBe(8.5);
    expect(s.samples).toBe(9);
    const byName = new Map(s.categories.map((c) => [c.category, c]));
    expect(byName.has('idle')).toBe(false);
    // The socket write pg asked for is charged to pg.
    expect(byName.get('pg driver')).toMatchObject({ selfMs: 3, chargedMs: 3.5, onStackMs: 3.5 });
    expect(byName.get('pg driver')!.selfShare).toBeCloseTo(3 / 8.5, 6);
    expect(byName.get('node internals')).toMatchObject({ selfMs: 0.5, chargedMs: 0 });
    // Prisma's own frames took 2 ms; with the driver it calls, 5.5 ms.
    expect(byName.get('prisma')).toMatchObject({ selfMs: 2, chargedMs: 2, onStackMs: 5.5 });
    // The runner is on the stack of everything but idle and the collector.
    expect(byName.get('engine: libs/workflow')).toMatchObject({ selfMs: 1, onStackMs: 7.5 });
    expect(byName.get('zod')).toMatchObject({ selfMs: 1, onStackMs: 1 });
    expect(byName.get('garbage collector')).toMatchObject({ selfMs: 1 });
    expect(s.categories[0]!.category).toBe('pg driver');
    expect(s.categories.map((c) => c.category)).not.toContain('(root)');
    expect(s.topFunctions[0]).toMatchObject({ fn: 'query (pg/lib/client.js:10)', category: 'pg driver', selfMs: 3 });
    expect(s.topFunctions.map((f) => f.fn)).toContain('runStep (libs/workflow/src/runner/step-runner.ts:10)');
  });

  it('falls back to hit counts when a profile has no samples', () => {
    const s = summariseProfile({
      nodes: [{ ...node(1, '(root)', '', [2]) }, { ...node(2, 'runStep', '/r/libs/workflow/src/x.ts'), hitCount: 4 }],
      startTime: 0,
      endTime: 4000,
    });
    expect(s.busyMs).toBe(4);
    expect(s.categories).toEqual([expect.objectContaining({ category: 'engine: libs/workflow', selfMs: 4, onStackMs: 4 })]);
  });

  it('merges the profiles of several processes into one summary', () => {
    const s = summariseProfile(mergeProfiles([profile, profile]));
    expect(s.busyMs).toBe(17);
    expect(s.samples).toBe(18);
    expect(s.categories.find((c) => c.category === 'prisma')).toMatchObject({ selfMs: 4, onStackMs: 11 });
  });

  it("merges a service's profile of a million samples (the model bench's, boot included)", () => {
    const n = 1_000_000;
    const big: CpuProfile = {
      ...profile,
      samples: new Array<number>(n).fill(profile.samples![0]!),
      timeDeltas: new Array<number>(n).fill(1),
    };
    const merged = mergeProfiles([big, big]);
    expect(merged.samples).toHaveLength(2 * n);
    expect(merged.timeDeltas).toHaveLength(2 * n);
  });

  it('prints tables with a per-step figure', () => {
    const text = formatSummary('engine', summariseProfile(profile), 4);
    expect(text).toContain('9 ms busy of 11 ms sampled (9 samples); 2125 µs busy per step over 4 steps');
    expect(text).toContain('| prisma | 2.0 | 23.5 % | 2.0 | 23.5 % | 5.5 | 64.7 % |');
  });
});
