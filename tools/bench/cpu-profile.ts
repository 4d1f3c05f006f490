/**
 * Where a process's CPU went, from a V8 CPU profile (`.cpuprofile`: what `node --cpu-prof` and the inspector's
 * `Profiler.stop` write), summarised by the parts of the step path (issue 31 item 1): Prisma, the pg driver, zod, the
 * Nest pipeline, BullMQ/ioredis, logging, tracing, our engine (libs/workflow, libs/db), the handlers' own work, Node's
 * internals and the garbage collector. Pure (tested on profiles built by hand, tools/bench/test/cpu-profile.spec.ts);
 * `npm run bench -- steps --cpu-prof` and `npm run bench -- model --cpu-prof` write profiles and print this, and
 * `node -r ./tools/ts-register.cjs tools/bench/cpu-profile.ts FILE…` summarises profiles taken any other way.
 *
 * Three views per category: self time (samples whose innermost frame is in it); charged time (self time, with Node's
 * internals charged to the nearest caller that is not: the socket writes pg and ioredis make are theirs); and on-stack
 * time (samples with a frame of it anywhere on the stack: "time in Prisma" including the driver and zod it calls).
 * Sample i lasts timeDeltas[i].
 */
import { readFileSync } from 'node:fs';

export interface ProfileCallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
  scriptId?: string | number;
}

export interface ProfileNode {
  id: number;
  callFrame: ProfileCallFrame;
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** The profile's root frame: on every stack, never a category of its own. */
const ROOT = '(root)';

/** The categories, checked in this order against a frame's url (the first that matches names it). */
export const CATEGORIES: readonly { name: string; test: (url: string, fn: string) => boolean }[] = [
  { name: 'idle', test: (url, fn) => url === '' && fn === '(idle)' },
  { name: 'garbage collector', test: (url, fn) => url === '' && fn === '(garbage collector)' },
  { name: ROOT, test: (url, fn) => url === '' && fn === '(root)' },
  { name: 'program (native, unattributed)', test: (url, fn) => url === '' && fn === '(program)' },
  { name: 'prisma', test: (url) => /node_modules\/(@prisma|\.prisma|prisma)\/|libs\/db\/src\/generated\//.test(url) },
  { name: 'pg driver', test: (url) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//.test(url) },
  { name: 'zod', test: (url) => /node_modules\/zod\//.test(url) },
  { name: 'nest pipeline', test: (url) => /node_modules\/(@nestjs|rxjs)\//.test(url) },
  { name: 'bullmq / redis', test: (url) => /node_modules\/(bullmq|ioredis|msgpackr|@ioredis|cron-parser|redis-[a-z]+)\//.test(url) },
  {
    name: 'logging',
    test: (url) => /node_modules\/(pino|pino-[a-z-]+|sonic-boom|thread-stream|fast-redact)\/|libs\/telemetry\/src\/log/.test(url),
  },
  { name: 'tracing / metrics', test: (url) => /node_modules\/@opentelemetry\/|libs\/telemetry\/src\//.test(url) },
  { name: 'engine: libs/workflow', test: (url) => /libs\/workflow\/src\//.test(url) },
  { name: 'engine: libs/queue', test: (url) => /libs\/queue\/src\//.test(url) },
  { name: 'repositories: libs/db', test: (url) => /libs\/db\/src\//.test(url) },
  { name: 'contracts', test: (url) => /libs\/contracts\/src\//.test(url) },
  {
    name: "handlers' own work",
    test: (url) => /libs\/(stages|agents|agent-store|sources|vectors|render|evals)\/|apps\/[a-z-]+\/src\//.test(url),
  },
  { name: 'test / bench harness', test: (url) => /libs\/testing\/|tools\/bench\/|\/test\/fixtures\//.test(url) },
  { name: 'other libraries', test: (url) => /node_modules\//.test(url) },
  { name: 'node internals', test: (url) => url.startsWith('node:') || url === '' || !url.includes('/') },
];

export const OTHER = 'other';

export function categoryOf(frame: ProfileCallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  return CATEGORIES.find((c) => c.test(url, frame.functionName))?.name ?? OTHER;
}

export interface CategoryTime {
  category: string;
  selfMs: number;
  /** Share of the profile's non-idle time. */
  selfShare: number;
  /** Self time with Node's internals charged to their nearest caller outside them. */
  chargedMs: number;
  chargedShare: number;
  onStackMs: number;
  onStackShare: number;
}

export interface FunctionTime {
  /** `name (path:line)`, path relative to the repository or node_modules. */
  fn: string;
  category: string;
  selfMs: number;
  selfShare: number;
}

export interface ProfileSummary {
  /** Sampled time, idle included. */
  totalMs: number;
  /** Sampled time the process was not idle: the denominators of the shares. */
  busyMs: number;
  samples: number;
  categories: CategoryTime[];
  topFunctions: FunctionTime[];
}

function shortUrl(url: string): string {
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('node_modules/');
  if (nm >= 0) return u.slice(nm + 'node_modules/'.length);
  const m = /\/(libs|apps|tools)\/.*$/.exec(u);
  return m ? m[0].slice(1) : u;
}

function frameName(frame: ProfileCallFrame): string {
  const name = frame.functionName || '(anonymous)';
  return frame.url ? `${name} (${shortUrl(frame.url)}:${frame.lineNumber + 1})` : name;
}

/** Time per sample in µs: `timeDeltas` when the profile has samples, else each node's hit count at an even split. */
function sampleTimes(profile: CpuProfile): { node: number; micros: number }[] {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  if (samples.length > 0 && deltas.length === samples.length) {
    return samples.map((node, i) => ({ node, micros: Math.max(0, deltas[i]!) }));
  }
  const hits = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const each = hits > 0 ? (profile.endTime - profile.startTime) / hits : 0;
  return profile.nodes.flatMap((n) => Array.from({ length: n.hitCount ?? 0 }, () => ({ node: n.id, micros: each })));
}

export function summariseProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const category = new Map(profile.nodes.map((n) => [n.id, categoryOf(n.callFrame)]));
  // The categories on each node's stack (itself and its ancestors), computed once per node.
  const stackCats = new Map<number, Set<string>>();
  const catsOf = (id: number): Set<string> => {
    const known = stackCats.get(id);
    if (known) return known;
    const up = parent.get(id);
    const set = new Set(up === undefined ? [] : catsOf(up));
    if (category.get(id) !== ROOT) set.add(category.get(id)!);
    stackCats.set(id, set);
    return set;
  };

  const NODE = 'node internals';
  const charged = new Map<number, string>();
  const chargedOf = (id: number): string => {
    const known = charged.get(id);
    if (known) return known;
    const cat = category.get(id)!;
    const up = parent.get(id);
    const c = cat === NODE && up !== undefined && category.get(up) !== ROOT ? chargedOf(up) : cat;
    charged.set(id, c);
    return c;
  };

  const self = new Map<string, number>();
  const chargedTime = new Map<string, number>();
  const onStack = new Map<string, number>();
  const fnSelf = new Map<string, { category: string; micros: number }>();
  let total = 0;
  let idle = 0;
  const times = sampleTimes(profile);
  for (const { node, micros } of times) {
    const n = byId.get(node);
    if (!n) continue;
    total += micros;
    const cat = category.get(node)!;
    if (cat === 'idle') {
      idle += micros;
      continue;
    }
    self.set(cat, (self.get(cat) ?? 0) + micros);
    const to = chargedOf(node);
    chargedTime.set(to, (chargedTime.get(to) ?? 0) + micros);
    for (const c of catsOf(node)) onStack.set(c, (onStack.get(c) ?? 0) + micros);
    const name = frameName(n.callFrame);
    const f = fnSelf.get(name) ?? { category: cat, micros: 0 };
    f.micros += micros;
    fnSelf.set(name, f);
  }
  const busy = total - idle;
  const share = (micros: number): number => (busy > 0 ? micros / busy : 0);
  const ms = (micros: number): number => Math.round(micros) / 1000;
  const categories = [...new Set([...self.keys(), ...onStack.keys()])]
    .filter((c) => c !== 'idle' && c !== ROOT)
    .map((c) => ({
      category: c,
      selfMs: ms(self.get(c) ?? 0),
      selfShare: share(self.get(c) ?? 0),
      chargedMs: ms(chargedTime.get(c) ?? 0),
      chargedShare: share(chargedTime.get(c) ?? 0),
      onStackMs: ms(onStack.get(c) ?? 0),
      onStackShare: share(onStack.get(c) ?? 0),
    }))
    .sort((a, b) => b.chargedMs - a.chargedMs || b.selfMs - a.selfMs || a.category.localeCompare(b.category));
  const topFunctions = [...fnSelf]
    .map(([fn, f]) => ({ fn, category: f.category, selfMs: ms(f.micros), selfShare: share(f.micros) }))
    .sort((a, b) => b.selfMs - a.selfMs || a.fn.localeCompare(b.fn))
    .slice(0, top);
  return { totalMs: ms(total), busyMs: ms(busy), samples: times.length, categories, topFunctions };
}

const pctText = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** The summary as Markdown tables; `perStep` divides the busy time by a number of steps when given. */
export function formatSummary(label: string, s: ProfileSummary, perStep?: number): string {
  const lines = [
    `\nCPU profile: ${label} — ${s.busyMs.toFixed(0)} ms busy of ${s.totalMs.toFixed(0)} ms sampled (${s.samples} samples)` +
      (perStep ? `; ${((s.busyMs * 1000) / perStep).toFixed(0)} µs busy per step over ${perStep} steps` : ''),
    '| category | self ms | self | charged ms (Node internals to their caller) | charged | on stack ms | on stack |',
    '|---|---|---|---|---|---|---|',
    ...s.categories.map(
      (c) =>
        `| ${c.category} | ${c.selfMs.toFixed(1)} | ${pctText(c.selfShare)} | ${c.chargedMs.toFixed(1)} | ${pctText(c.chargedShare)} | ${c.onStackMs.toFixed(1)} | ${pctText(c.onStackShare)} |`,
    ),
    '',
    '| function (self time) | category | self ms | share |',
    '|---|---|---|---|',
    ...s.topFunctions.map((f) => `| ${f.fn.replaceAll('|', '\\|')} | ${f.category} | ${f.selfMs.toFixed(1)} | ${pctText(f.selfShare)} |`),
  ];
  return lines.join('\n');
}

/** Several profiles (one per process) as one: node ids are renumbered, samples and their times appended. */
export function mergeProfiles(profiles: readonly CpuProfile[]): CpuProfile {
  const merged: CpuProfile = { nodes: [], startTime: 0, endTime: 0, samples: [], timeDeltas: [] };
  let offset = 0;
  for (const p of profiles) {
    const maxId = p.nodes.reduce((m, n) => Math.max(m, n.id), 0);
    // Loops, not `push(...array)`: a service's profile holds hundreds of thousands of samples, past the call stack's
    // limit on arguments.
    for (const n of p.nodes) {
      merged.nodes.push({ ...n, id: n.id + offset, ...(n.children ? { children: n.children.map((c) => c + offset) } : {}) });
    }
    if (p.samples && p.timeDeltas && p.samples.length === p.timeDeltas.length) {
      for (let i = 0; i < p.samples.length; i++) {
        merged.samples!.push(p.samples[i]! + offset);
        merged.timeDeltas!.push(p.timeDeltas[i]!);
      }
    }
    merged.endTime += p.endTime - p.startTime;
    offset += maxId + 1;
  }
  return merged;
}

/**
 * The samples of a profile taken between two instants (µs on the monotonic clock: V8's profile timestamps and
 * `process.hrtime.bigint() / 1000n` share it on Linux, across processes): a service's steps without its boot.
 */
export function windowProfile(profile: CpuProfile, fromMicros: number, toMicros: number): CpuProfile {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const kept: CpuProfile = { nodes: profile.nodes, startTime: fromMicros, endTime: toMicros, samples: [], timeDeltas: [] };
  let t = profile.startTime;
  for (let i = 0; i < samples.length && i < deltas.length; i++) {
    t += deltas[i]!;
    if (t < fromMicros || t > toMicros) continue;
    kept.samples!.push(samples[i]!);
    kept.timeDeltas!.push(deltas[i]!);
  }
  kept.startTime = Math.max(fromMicros, profile.startTime);
  kept.endTime = Math.min(toMicros, profile.endTime);
  return kept;
}

/**
 * Inclusive time of the functions whose frame passes `keep` (by default the repository's own code: libs/ and apps/):
 * each sample counted once for every such function on its stack. Where the handlers' time goes, by caller: a prompt
 * built, a response parsed, a write of evidence, the time below them included.
 */
export function inclusiveTimes(
  profile: CpuProfile,
  top = 30,
  keep: (frame: ProfileCallFrame) => boolean = (f) => !f.url.includes('node_modules/') && /\/(libs|apps)\//.test(f.url),
): FunctionTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const names = new Map<number, string[]>();
  const namesOf = (id: number): string[] => {
    const known = names.get(id);
    if (known) return known;
    const up = parent.get(id);
    const above = up === undefined ? [] : namesOf(up);
    const frame = byId.get(id)!.callFrame;
    const list = keep(frame) ? [...new Set([...above, frameName(frame)])] : above;
    names.set(id, list);
    return list;
  };
  const time = new Map<string, { category: string; micros: number }>();
  let busy = 0;
  for (const { node, micros } of sampleTimes(profile)) {
    const n = byId.get(node);
    if (!n || categoryOf(n.callFrame) === 'idle') continue;
    busy += micros;
    for (const name of namesOf(node)) {
      const t = time.get(name) ?? { category: '', micros: 0 };
      t.micros += micros;
      time.set(name, t);
    }
  }
  for (const n of profile.nodes) {
    const name = frameName(n.callFrame);
    const t = time.get(name);
    if (t && !t.category) t.category = categoryOf(n.callFrame);
  }
  return [...time]
    .map(([fn, t]) => ({ fn, category: t.category, selfMs: Math.round(t.micros) / 1000, selfShare: busy > 0 ? t.micros / busy : 0 }))
    .sort((a, b) => b.selfMs - a.selfMs || a.fn.localeCompare(b.fn))
    .slice(0, top);
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

if (require.main === module) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write('usage: node -r ./tools/ts-register.cjs tools/bench/cpu-profile.ts FILE.cpuprofile…\n');
    process.exit(2);
  }
  for (const file of files) console.log(formatSummary(file, summariseProfile(readProfile(file))));
}
