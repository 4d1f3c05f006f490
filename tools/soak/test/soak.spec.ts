import { Cleanup } from '../cleanup';
import { SoakConfig } from '../soak-config';
import { runSoak } from '../soak';
import type { SoakSummary } from '../soak-summary';

/**
 * The small chaos soak (docs/decisions/0018): the whole system as separate processes on its own Postgres and
 * Redis, 8 runs through the gateway (some against the local model server) while 15 service processes are killed,
 * Redis is flushed once and Postgres is down for 10 seconds. Nothing may be lost, duplicated or paid twice.
 * `npm run soak` is the same at full size.
 */
describe('chaos soak (small)', () => {
  let summary: SoakSummary;
  const cleanup = new Cleanup();

  beforeAll(async () => {
    // A generous time budget: on a loaded machine the runs take longer, which is not what this test is about.
    const config = SoakConfig.parse({ runs: 8, kills: 15, duration: 1_500, seed: 11, modelEvery: 3 });
    try {
      summary = await runSoak(config, (line) => process.stderr.write(`soak: ${line}\n`), cleanup);
    } finally {
      await cleanup.run();
    }
    process.stderr.write(
      `${JSON.stringify({ ...summary, sse: { ...summary.sse, runsWithProblems: summary.sse.runsWithProblems.length } })}\n`,
    );
  }, 1_800_000);

  it('applied the chaos it promises: ≥ 15 kills (the gateway among the victims), one flush, one Postgres outage', () => {
    expect(summary.chaos.kills).toBeGreaterThanOrEqual(15);
    expect(summary.chaos.flushes).toBe(1);
    expect(summary.chaos.postgresOutages).toBe(1);
    expect(summary.chaos.errors).toEqual([]);
    expect(summary.sse.drops + summary.sse.brokenConnections).toBeGreaterThan(0);
  });

  it('lost no run: every acknowledged run completed, none failed, none was created twice', () => {
    expect(summary.runs.submitted).toBe(8);
    expect({ failures: summary.runs.failures, unfinished: summary.runs.unfinishedRuns }).toEqual({ failures: [], unfinished: [] });
    expect(summary.runs.completed).toBe(8);
    expect(summary.runs.duplicateRuns).toBe(0);
    expect(summary.runs.replays.sameRun).toBe(summary.runs.replays.checked);
  });

  it('duplicated no output of any step', () => {
    expect(summary.duplicateOutputs).toEqual({ steps: 0, byKind: {}, examples: [] });
  });

  it('paid no model request twice, and llm_calls match the model server request by request', () => {
    const m = summary.modelCalls;
    expect(m.paid).toBeGreaterThan(0);
    expect({ paidTwice: m.paidTwice, unexplained: m.lostInFlight.unexplained, examples: m.examples }).toEqual({
      paidTwice: 0,
      unexplained: 0,
      examples: [],
    });
    expect({ unrecorded: m.unrecordedPaid, phantom: m.recordedNotPaid, usage: m.usageMismatches }).toEqual({
      unrecorded: 0,
      phantom: 0,
      usage: 0,
    });
  });

  it('every audit chain verifies', () => {
    expect(summary.audit.broken).toEqual([]);
    expect(summary.audit.verified).toBe(8);
  });

  it('the follower missed no event and got none twice, across dropped connections and gateway kills', () => {
    expect(summary.sse.runsWithProblems).toEqual([]);
    expect(summary.sse.eventsReceived).toBe(summary.sse.eventsInLog);
  });

  it('no service process died on its own', () => {
    expect(Object.entries(summary.chaos.crashes).filter(([, n]) => n > 0)).toEqual([]);
  });
});
