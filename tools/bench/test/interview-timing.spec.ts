import { interviewTimings, type CallRow, type TurnRow } from '../interview-timing';

const turn = (shard: number, t: number, startedAt: number, completedAt: number): TurnRow => ({
  stepKey: `run.interview.${t}.${shard}`,
  shard,
  turn: t,
  startedAt,
  completedAt,
});
const call = (stepKey: string, role: string, tokensIn: number, tokensOut: number): CallRow => ({ stepKey, role, tokensIn, tokensOut });

describe('interviewTimings', () => {
  // Four interviews: 0 and 1 run side by side, 3 (one short turn) starts inside them, 2 starts the instant 1 ends.
  const turns = [
    turn(0, 0, 0, 1000),
    turn(0, 1, 1000, 2500),
    turn(1, 0, 100, 1200),
    turn(1, 1, 1300, 3000),
    turn(2, 0, 3000, 3500),
    turn(3, 0, 900, 1100),
  ];

  it('measures the phase, each interview and the slowest from the turn rows', () => {
    const t = interviewTimings(turns, []);
    expect(t.wallMs).toBe(3500);
    expect(t.interviews).toEqual([
      { shard: 0, turns: 2, startedAt: 0, durationMs: 2500, betweenTurnsMs: 0 },
      // Its second turn starts 100 ms after its first ends.
      { shard: 1, turns: 2, startedAt: 100, durationMs: 2900, betweenTurnsMs: 100 },
      { shard: 2, turns: 1, startedAt: 3000, durationMs: 500, betweenTurnsMs: 0 },
      { shard: 3, turns: 1, startedAt: 900, durationMs: 200, betweenTurnsMs: 0 },
    ]);
    expect(t.slowest.shard).toBe(1);
    expect(t.wallOverSlowest).toBeCloseTo(3500 / 2900, 6);
    // Shard 1 spent 1100 + 1700 ms in its turns, the most of any interview.
    expect(t.wallOverBusiest).toBeCloseTo(3500 / 2800, 6);
    expect(t.sumOverWall).toBeCloseTo(6100 / 3500, 6);
    expect(t.turns).toBe(6);
  });

  it('counts turns overlapping a turn of another interview; touching is not overlapping', () => {
    const t = interviewTimings(turns, []);
    // Every turn but shard 2's, which starts exactly when shard 1's last turn ends.
    expect(t.overlappingTurns).toBe(5);
    // 900–1000: shard 0 turn 0, shard 1 turn 0 and shard 3 turn 0.
    expect(t.peakConcurrentTurns).toBe(3);
  });

  it('gives the ratio of interviews run one after the other as their number, with no overlap', () => {
    const t = interviewTimings([turn(0, 0, 0, 1000), turn(1, 0, 1000, 2000)], []);
    expect(t.wallOverSlowest).toBe(2);
    expect(t.wallOverBusiest).toBe(2);
    expect(t.overlappingTurns).toBe(0);
    expect(t.peakConcurrentTurns).toBe(1);
  });

  it('adds up model calls and tokens by role over interview turns only, and per turn', () => {
    const calls = [
      call('run.interview.0.0', 'interviewAnalyst', 10, 2),
      call('run.interview.0.0', 'evidenceCurator', 100, 20),
      call('run.interview.0.0', 'evidenceCurator', 120, 30),
      call('run.interview.0.0', 'interviewExpert', 200, 40),
      call('run.interview.1.1', 'interviewAnalyst', 12, 3),
      call('run.interview.1.1', 'interviewExpert', 50, 5),
      call('run.claims.0.0', 'claimBuilder', 999, 99),
    ];
    const t = interviewTimings(turns, calls);
    expect(t.byRole.map((r) => [r.role, r.calls, r.tokensIn, r.tokensOut])).toEqual([
      ['evidenceCurator', 2, 220, 50],
      ['interviewAnalyst', 2, 22, 5],
      ['interviewExpert', 2, 250, 45],
    ]);
    expect(t.byRole[0]!.perTurn.calls).toBeCloseTo(2 / 6, 6);
    expect(t.byRole[2]!.perTurn.tokensIn).toBeCloseTo(250 / 6, 6);
  });

  it('refuses a run without interview turns, and a turn ending before it starts', () => {
    expect(() => interviewTimings([], [])).toThrow(/did not interview/);
    expect(() => interviewTimings([turn(0, 0, 500, 400)], [])).toThrow(/run.interview.0.0 ends before it starts/);
  });
});
