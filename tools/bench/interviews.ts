/**
 * `npm run bench -- interviews` (issue 14, decision 0024): do the analysts' interviews run at the same time, and what
 * does a turn cost? One run in interviews mode (BENCH_INTERVIEW_ANALYSTS analysts × BENCH_INTERVIEW_TURNS turns) on the
 * example corpus, on the real services against the local model server with a fixed simulated latency (the set-up of
 * `npm run bench -- model`, tools/bench/model-services.ts). From the run's stored rows (the interview steps'
 * `node_executions` timestamps, `llm_calls`): the interview phase's wall time beside its slowest interview, how many
 * turns overlapped, and model calls and tokens per turn by role (interview-timing.ts).
 */
import type { RunOptionsInput } from '@dossier/contracts';
import { sql, type TestDatabase } from '@dossier/testing';
import { interviewTimings, type CallRow, type InterviewTimings, type TurnRow } from './interview-timing';
import { COLLECTION, completedRun, progressLog, startModelBench } from './model-services';
import { runBench } from './run-bench';

const LATENCY_MS = Number(process.env['BENCH_MODEL_LATENCY_MS'] ?? 500);
const ANALYSTS = Number(process.env['BENCH_INTERVIEW_ANALYSTS'] ?? 4);
const TURNS = Number(process.env['BENCH_INTERVIEW_TURNS'] ?? 3);
const RUN_OPTIONS: RunOptionsInput = {
  engine: 'openai',
  collection: COLLECTION,
  mode: 'interviews',
  perspectives: ANALYSTS,
  interviewTurns: TURNS,
};
/** How the roles of a turn read in the table (the names stored in llm_calls). */
const ROLE_LABELS: Record<string, string> = {
  interviewAnalyst: 'analyst',
  interviewExpert: 'expert',
  evidenceCurator: 'evidence curator',
};

const progress = progressLog('interviews bench');

async function turnRows(db: TestDatabase, runId: string): Promise<TurnRow[]> {
  const rows = await sql<{
    step_key: string;
    shard: number;
    iteration: number;
    started_at: Date | null;
    completed_at: Date | null;
    status: string;
  }>(
    db.url,
    `SELECT step_key, shard, iteration, started_at, completed_at, status FROM node_executions
      WHERE run_id = $1 AND node = 'interview' ORDER BY shard, iteration`,
    [runId],
  );
  return rows.map((r) => {
    if (r.status !== 'completed' || !r.started_at || !r.completed_at) throw new Error(`Interview step ${r.step_key} is ${r.status}`);
    return {
      stepKey: r.step_key,
      shard: r.shard,
      turn: r.iteration,
      startedAt: new Date(r.started_at).getTime(),
      completedAt: new Date(r.completed_at).getTime(),
    };
  });
}

/** Requests that went to the model (not the offline engine) by the run's interview steps. */
async function callRows(db: TestDatabase, runId: string): Promise<CallRow[]> {
  const rows = await sql<{ step_key: string; role: string; tokens_in: number; tokens_out: number }>(
    db.url,
    `SELECT c.step_key, c.role, c.tokens_in, c.tokens_out FROM llm_calls c
       JOIN node_executions e ON e.step_key = c.step_key
      WHERE c.run_id = $1 AND e.node = 'interview' AND c.engine <> 'offline'`,
    [runId],
  );
  return rows.map((r) => ({ stepKey: r.step_key, role: r.role, tokensIn: r.tokens_in, tokensOut: r.tokens_out }));
}

const s = (ms: number): string => (ms / 1000).toFixed(1);

function print(t: InterviewTimings, turns: TurnRow[]): void {
  console.log(
    `\nInterviews (simulated latency ${LATENCY_MS} ms per model request; options ${JSON.stringify(RUN_OPTIONS)}; one process per service, worker concurrency ${process.env['WORKER_CONCURRENCY'] ?? 'default (8)'})`,
  );
  console.log(`(at most ${TURNS} turns: an interview ends earlier when its analyst closes it)`);
  const phaseStart = Math.min(...t.interviews.map((i) => i.startedAt));
  console.log('| interview (shard) | turns | starts at s | duration s | turn durations s | between turns s |');
  console.log('|---|---|---|---|---|---|');
  for (const i of t.interviews) {
    const own = turns.filter((r) => r.shard === i.shard).sort((a, b) => a.turn - b.turn);
    console.log(
      `| ${i.shard} | ${i.turns} | +${s(i.startedAt - phaseStart)} | ${s(i.durationMs)} | ${own.map((r) => s(r.completedAt - r.startedAt)).join(', ')} | ${s(i.betweenTurnsMs)} |`,
    );
  }
  console.log(
    `interview phase wall ${s(t.wallMs)} s; slowest interview (shard ${t.slowest.shard}) ${s(t.slowest.durationMs)} s; wall / slowest ${t.wallOverSlowest.toFixed(2)} (1 = fully parallel, ${t.interviews.length} = one after the other); sum of interviews / wall ${t.sumOverWall.toFixed(2)}`,
  );
  console.log(
    `wall / the longest time one interview spent in its own turns ${t.wallOverBusiest.toFixed(2)} (1 = no turn waited; above wall / slowest when turns waited for a free worker)`,
  );
  console.log(
    `turns overlapping a turn of another interview: ${t.overlappingTurns} of ${t.turns}; most turns running at once: ${t.peakConcurrentTurns}`,
  );
  console.log(`\nModel requests per interview turn (${t.turns} turns)`);
  console.log('| role | calls | calls per turn | prompt tokens per turn | completion tokens per turn |');
  console.log('|---|---|---|---|---|');
  for (const r of t.byRole) {
    console.log(
      `| ${ROLE_LABELS[r.role] ?? r.role} | ${r.calls} | ${r.perTurn.calls.toFixed(2)} | ${Math.round(r.perTurn.tokensIn)} | ${Math.round(r.perTurn.tokensOut)} |`,
    );
  }
  const all = t.byRole.reduce((a, r) => ({ calls: a.calls + r.calls, in: a.in + r.tokensIn, out: a.out + r.tokensOut }), {
    calls: 0,
    in: 0,
    out: 0,
  });
  console.log(
    `| all | ${all.calls} | ${(all.calls / t.turns).toFixed(2)} | ${Math.round(all.in / t.turns)} | ${Math.round(all.out / t.turns)} |`,
  );
}

async function main(): Promise<void> {
  const bench = await startModelBench(LATENCY_MS, progress);
  try {
    progress('services ready; warm-up run (one analyst, one turn)');
    // Warm-up (each process compiles and connects on its first steps, the interview path included), not counted.
    await completedRun(bench, { ...RUN_OPTIONS, perspectives: 1, interviewTurns: 1 }, 'warm-up');
    progress(`warm-up done; ${ANALYSTS} analysts × ${TURNS} turns`);
    const runId = await completedRun(bench, RUN_OPTIONS, 'interviews');
    progress('run done');
    const turns = await turnRows(bench.db, runId);
    print(interviewTimings(turns, await callRows(bench.db, runId)), turns);
  } finally {
    await bench.close();
  }
}

runBench(main);
