/**
 * What the interviews bench computes from a run's stored rows (issue 14, decision 0024): whether the analysts'
 * interviews ran at the same time (wall time of the interview phase beside its slowest interview, turns overlapping
 * in time) and what one interview turn costs in model calls and tokens, by role. Pure, so it is tested on rows built
 * by hand (tools/bench/test/interview-timing.spec.ts); tools/bench/interviews.ts reads the rows and prints the result.
 */

/** One interview turn: its `node_executions` row (node `interview`; iteration = turn, shard = analyst), times in ms. */
export interface TurnRow {
  stepKey: string;
  shard: number;
  turn: number;
  startedAt: number;
  completedAt: number;
}

/** One model request (`llm_calls`): the step that made it, the role, and its tokens. */
export interface CallRow {
  stepKey: string;
  role: string;
  tokensIn: number;
  tokensOut: number;
}

export interface InterviewSpan {
  shard: number;
  turns: number;
  /** Its first turn's start → its last turn's end. */
  startedAt: number;
  durationMs: number;
  /** Its duration less its turns' own: the time between a turn's end and the next turn's start (decide, dispatch). */
  betweenTurnsMs: number;
}

export interface RoleUse {
  role: string;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  /** The same, divided by the number of turns. */
  perTurn: { calls: number; tokensIn: number; tokensOut: number };
}

export interface InterviewTimings {
  /** First turn's start → last turn's end, over every interview. */
  wallMs: number;
  /** By shard. */
  interviews: InterviewSpan[];
  slowest: InterviewSpan;
  /** 1 when the interviews ran fully at once; the number of interviews when one ran after the other. */
  wallOverSlowest: number;
  /**
   * Wall time over the longest time one interview spent in its own turns (its duration less the time between them).
   * Unlike `wallOverSlowest`, it shows turns waiting for a free worker: a wait stretches the slowest interview too.
   */
  wallOverBusiest: number;
  /** The interviews' durations added up, over the wall time: how many ran at once on average. */
  sumOverWall: number;
  turns: number;
  /** Turns that ran, for some time, at the same time as a turn of another interview. */
  overlappingTurns: number;
  /** The most turns running at one instant. */
  peakConcurrentTurns: number;
  /** Model requests made by interview turns, by role (name order). */
  byRole: RoleUse[];
}

/** Two turns overlap when each started before the other ended; a turn starting as another ends does not. */
const overlaps = (a: TurnRow, b: TurnRow): boolean => a.startedAt < b.completedAt && b.startedAt < a.completedAt;

function peakConcurrency(turns: readonly TurnRow[]): number {
  // Ends sort before starts at the same instant, consistently with `overlaps`.
  const events = turns.flatMap((t) => [
    { at: t.startedAt, delta: 1 },
    { at: t.completedAt, delta: -1 },
  ]);
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let running = 0;
  let peak = 0;
  for (const e of events) {
    running += e.delta;
    peak = Math.max(peak, running);
  }
  return peak;
}

/**
 * The interview phase of one run from its turn rows and its model calls (calls of other steps are ignored). Throws when
 * there is no turn or a turn ends before it starts: the bench measures completed runs only.
 */
export function interviewTimings(turns: readonly TurnRow[], calls: readonly CallRow[]): InterviewTimings {
  if (turns.length === 0) throw new Error('No interview turn: the run did not interview');
  for (const t of turns) {
    if (!(t.completedAt >= t.startedAt)) throw new Error(`Interview turn ${t.stepKey} ends before it starts`);
  }
  const byShard = new Map<number, TurnRow[]>();
  for (const t of turns) byShard.set(t.shard, [...(byShard.get(t.shard) ?? []), t]);
  const interviews = [...byShard]
    .sort(([a], [b]) => a - b)
    .map(([shard, rows]): InterviewSpan => {
      const startedAt = Math.min(...rows.map((r) => r.startedAt));
      const durationMs = Math.max(...rows.map((r) => r.completedAt)) - startedAt;
      const inTurns = rows.reduce((sum, r) => sum + r.completedAt - r.startedAt, 0);
      return { shard, turns: rows.length, startedAt, durationMs, betweenTurnsMs: durationMs - inTurns };
    });
  const wallMs = Math.max(...turns.map((t) => t.completedAt)) - Math.min(...turns.map((t) => t.startedAt));
  const slowest = interviews.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  const overlappingTurns = turns.filter((t) => turns.some((o) => o.shard !== t.shard && overlaps(t, o))).length;

  const turnKeys = new Set(turns.map((t) => t.stepKey));
  const roles = new Map<string, { calls: number; tokensIn: number; tokensOut: number }>();
  for (const c of calls) {
    if (!turnKeys.has(c.stepKey)) continue;
    const r = roles.get(c.role) ?? { calls: 0, tokensIn: 0, tokensOut: 0 };
    roles.set(c.role, { calls: r.calls + 1, tokensIn: r.tokensIn + c.tokensIn, tokensOut: r.tokensOut + c.tokensOut });
  }
  const byRole = [...roles]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([role, r]) => ({
      role,
      ...r,
      perTurn: { calls: r.calls / turns.length, tokensIn: r.tokensIn / turns.length, tokensOut: r.tokensOut / turns.length },
    }));

  return {
    wallMs,
    interviews,
    slowest,
    wallOverSlowest: slowest.durationMs === 0 ? NaN : wallMs / slowest.durationMs,
    wallOverBusiest: wallMs / Math.max(...interviews.map((i) => i.durationMs - i.betweenTurnsMs)),
    sumOverWall: wallMs === 0 ? NaN : interviews.reduce((s, i) => s + i.durationMs, 0) / wallMs,
    turns: turns.length,
    overlappingTurns,
    peakConcurrentTurns: peakConcurrency(turns),
    byRole,
  };
}
