const { split } = require('../shards.cjs') as {
  split(files: string[], durations: Record<string, number>, count: number, heads: number[]): { seconds: number; files: string[] }[];
};

/** How `npm test` divides the jest files between its two shards (tools/test.sh; docs/decisions/0006). */
describe('shards.cjs split', () => {
  it('puts every file in exactly one shard, longest first onto the shard that ends soonest', () => {
    const durations = { a: 100, b: 60, c: 50, d: 40, e: 10 };
    const shards = split(Object.keys(durations), durations, 2, [0, 0]);
    expect(shards.flatMap((s) => s.files).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    // a → 1; b → 2; c → 2 (110); d → 1 (140); e → 2 (120).
    expect(shards.map((s) => s.files)).toEqual([
      ['a', 'd'],
      ['b', 'c', 'e'],
    ]);
    expect(shards.map((s) => s.seconds)).toEqual([140, 120]);
  });

  it("counts the time a shard spends first on other work (the soak's) against it", () => {
    const durations = { a: 50, b: 50, c: 50, d: 50 };
    const shards = split(Object.keys(durations), durations, 2, [0, 100]);
    expect(shards[0]!.files).toEqual(['a', 'b', 'c']);
    expect(shards[1]!.files).toEqual(['d']);
  });

  it('a file with no recorded duration counts as 4 s while most files have none, else as the median', () => {
    const few = split(['slow', 'x', 'y', 'z'], { slow: 30 }, 2, [0, 0]);
    expect(few.map((s) => s.seconds).sort((a, b) => a - b)).toEqual([12, 30]);
    const most = split(['a', 'b', 'c', 'new'], { a: 10, b: 20, c: 30 }, 2, [0, 0]);
    expect(most.reduce((sum, s) => sum + s.seconds, 0)).toBe(10 + 20 + 30 + 20);
  });
});
