import type { Db } from '../prisma.service';
import { RunNotFoundError, StageStateError } from '@dossier/errors';

/** One decided step, as its outbox row records it: the step and the step (or start, gate, resume) that decided it. */
export interface DecidedStep {
  stepKey: string;
  causeKey: string;
  node: string;
}

/** One model request of a step: when it was sent and how long the model took (llm_calls). */
export interface TimedCall {
  stepKey: string;
  /** ms since the epoch. */
  startedAt: number;
  latencyMs: number;
}

export interface CriticalPath {
  /** The sum of the model latencies along the longest chain of dependent model calls, in ms. */
  lengthMs: number;
  /** That chain, first call first. */
  calls: TimedCall[];
}

/**
 * Which steps each step waited for, from who decided it. A step waits for the step that decided it; a step that
 * follows a fan-out (the join) was decided by the shard that finished last but waited for every shard, so it waits
 * for every step of that fan-out: the steps of the same node that share its origin (the decider of the first step of
 * each shard's chain, so the turns of a shard loop count too, decision 0024). Causes that are no step (start, a
 * gate decided by a person, resume) begin a chain: waiting for a person is not the engine's time.
 */
export function stepDependencies(steps: readonly DecidedStep[]): Map<string, string[]> {
  const byKey = new Map(steps.map((s) => [s.stepKey, s]));
  const originMemo = new Map<string, string>();
  const origin = (s: DecidedStep): string => {
    const known = originMemo.get(s.stepKey);
    if (known !== undefined) return known;
    const cause = byKey.get(s.causeKey);
    const found = cause && cause.node === s.node ? origin(cause) : s.causeKey;
    originMemo.set(s.stepKey, found);
    return found;
  };
  const groups = new Map<string, string[]>();
  for (const s of steps) {
    const group = `${s.node} ${origin(s)}`;
    groups.set(group, [...(groups.get(group) ?? []), s.stepKey]);
  }
  const deps = new Map<string, string[]>();
  for (const s of steps) {
    const cause = byKey.get(s.causeKey);
    if (!cause) {
      deps.set(s.stepKey, []);
      continue;
    }
    const joined = cause.node === s.node ? [] : (groups.get(`${cause.node} ${origin(cause)}`) ?? []);
    deps.set(s.stepKey, [...new Set([cause.stepKey, ...joined])]);
  }
  return deps;
}

/**
 * The critical path of a run's model calls (issue 18): a call depends on every call of the steps its step waited for
 * (transitively), and on the calls of its own step that had ended before it was sent (a step's calls that overlapped
 * were independent). The longest such chain, weighted by model latency, is the least wall time the run could take
 * with the model as it answered and an engine that added nothing: a run's wall time over it is the engine's overhead.
 */
export function criticalPath(steps: readonly DecidedStep[], calls: readonly TimedCall[], runId?: string): CriticalPath {
  const deps = stepDependencies(steps);
  const callsOf = new Map<string, TimedCall[]>();
  for (const c of calls) callsOf.set(c.stepKey, [...(callsOf.get(c.stepKey) ?? []), c]);
  // For each step: the longest chain ending when it finished, as its length and its last call's link.
  type Link = { call: TimedCall; length: number; before: Link | null };
  const finished = new Map<string, Link | null>();
  const visiting = new Set<string>();
  const longer = (a: Link | null, b: Link | null): Link | null => (b && (!a || b.length > a.length) ? b : a);
  const finish = (key: string): Link | null => {
    if (finished.has(key)) return finished.get(key)!;
    // Outbox keys are unique and a step is decided after its cause committed, so a cycle means corrupt rows.
    if (visiting.has(key)) throw new StageStateError(`The step graph has a cycle through ${key}`, runId === undefined ? {} : { runId });
    visiting.add(key);
    let ready: Link | null = null;
    for (const dep of deps.get(key) ?? []) ready = longer(ready, finish(dep));
    const own = [...(callsOf.get(key) ?? [])].sort((a, b) => a.startedAt - b.startedAt);
    const links: Link[] = [];
    let best = ready;
    for (const call of own) {
      let before = ready;
      for (const link of links) if (link.call.startedAt + link.call.latencyMs <= call.startedAt) before = longer(before, link);
      const link: Link = { call, length: (before?.length ?? 0) + call.latencyMs, before };
      links.push(link);
      best = longer(best, link);
    }
    visiting.delete(key);
    finished.set(key, best);
    return best;
  };
  let end: Link | null = null;
  for (const s of steps) end = longer(end, finish(s.stepKey));
  // Calls of steps missing from the outbox (none in a consistent run) still count, on their own.
  for (const key of callsOf.keys()) if (!deps.has(key)) end = longer(end, finish(key));
  const chain: TimedCall[] = [];
  for (let link = end; link; link = link.before) chain.unshift(link.call);
  return { lengthMs: end?.length ?? 0, calls: chain };
}

export interface RunCriticalPath extends CriticalPath {
  /** From the run's creation to its completion (or to now while it runs), in ms. */
  wallMs: number;
  /** Model requests of the run (engine other than offline). */
  modelCalls: number;
}

/**
 * A run's critical path from its stored rows: the outbox (who decided each step) and llm_calls (each request's
 * reservation time and latency; offline-engine rows are CPU, not model time, and are left out). A call's start is
 * its row's creation, a few ms before the request left (budget reservation, rate limit), which can only shorten
 * the gaps between a step's calls, never lengthen the path.
 */
export async function runCriticalPath(
  db: Pick<Db, 'researchRun' | 'outbox' | 'llmCall'>,
  tenantId: string,
  runId: string,
): Promise<RunCriticalPath> {
  const [run, steps, calls] = await Promise.all([
    db.researchRun.findFirst({ where: { id: runId, tenantId }, select: { createdAt: true, completedAt: true } }),
    db.outbox.findMany({ where: { tenantId, runId }, select: { stepKey: true, causeKey: true, node: true } }),
    db.llmCall.findMany({
      where: { tenantId, runId, engine: { not: 'offline' } },
      select: { stepKey: true, createdAt: true, latencyMs: true },
    }),
  ]);
  if (!run) throw new RunNotFoundError(`Run ${runId} not found`, { runId });
  const timed = calls.map((c) => ({ stepKey: c.stepKey, startedAt: c.createdAt.getTime(), latencyMs: c.latencyMs }));
  const path = criticalPath(steps, timed, runId);
  return { ...path, wallMs: (run.completedAt ?? new Date()).getTime() - run.createdAt.getTime(), modelCalls: calls.length };
}
