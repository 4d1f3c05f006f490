import { planBatch, type Candidate, type StoredDocument } from '../../src';

const candidate = (path: string, hash: string, title = `title of ${path}`): Candidate => ({
  path,
  title,
  mediaType: 'text/plain',
  text: `text ${hash}`,
  contentHash: hash,
  byteSize: 10,
  modifiedAt: new Date(0),
  aliases: [],
});
const stored = (id: string, path: string, hash: string, title = `title of ${path}`): StoredDocument => ({
  id,
  path,
  contentHash: hash,
  title,
  mediaType: 'text/plain',
  aliases: [],
});

describe('planBatch', () => {
  it('inserts new paths, leaves current ones alone and updates changed ones', () => {
    const plan = planBatch(
      [
        candidate('new.txt', 'h1'),
        candidate('same.txt', 'h2'),
        candidate('changed.txt', 'h3'),
        candidate('retitled.txt', 'h4', 'New title'),
      ],
      [stored('s', 'same.txt', 'h2'), stored('c', 'changed.txt', 'old'), stored('r', 'retitled.txt', 'h4', 'Old title')],
      new Set(['new.txt', 'same.txt', 'changed.txt', 'retitled.txt']),
    );
    expect(plan.outcomes.map((o) => o.kind)).toEqual(['ingested', 'unchanged', 'updated', 'updated']);
    expect(plan.inserts.map((c) => c.path)).toEqual(['new.txt']);
    expect(plan.updates.map((u) => u.id)).toEqual(['c', 'r']);
    expect(plan.deletes).toEqual([]);
  });

  it('reports a file whose text is stored under another path as a duplicate of it, and stores nothing', () => {
    const plan = planBatch([candidate('copy.txt', 'h1')], [stored('o', 'original.txt', 'h1')], new Set(['copy.txt']));
    expect(plan.outcomes).toEqual([{ kind: 'duplicate', path: 'copy.txt', duplicateOf: 'original.txt' }]);
    expect(plan).toMatchObject({ inserts: [], updates: [], deletes: [] });
  });

  it('two equal new files in one batch: the first is stored, the second is its duplicate', () => {
    const plan = planBatch([candidate('a.txt', 'h'), candidate('b.txt', 'h')], [], new Set(['a.txt', 'b.txt']));
    expect(plan.outcomes).toEqual([
      { kind: 'ingested', path: 'a.txt' },
      { kind: 'duplicate', path: 'b.txt', duplicateOf: 'a.txt' },
    ]);
    expect(plan.inserts).toHaveLength(1);
  });

  it('a file that became a copy of another loses its stale row', () => {
    const plan = planBatch([candidate('b.txt', 'ha')], [stored('a', 'a.txt', 'ha'), stored('b', 'b.txt', 'hb')], new Set(['b.txt']));
    expect(plan.outcomes).toEqual([{ kind: 'duplicate', path: 'b.txt', duplicateOf: 'a.txt' }]);
    expect(plan.deletes).toEqual(['b']);
  });

  it('an owner this run has not reached yet is evicted, so the outcome does not depend on history', () => {
    const pending = new Set(['a.txt', 'z.txt']);
    const first = planBatch([candidate('a.txt', 'h')], [stored('z', 'z.txt', 'h')], pending);
    expect(first.deletes).toEqual(['z']);
    expect(first.outcomes).toEqual([{ kind: 'ingested', path: 'a.txt' }]);
    expect(pending).toEqual(new Set(['z.txt']));
    const second = planBatch([candidate('z.txt', 'h')], [stored('a', 'a.txt', 'h')], pending);
    expect(second.outcomes).toEqual([{ kind: 'duplicate', path: 'z.txt', duplicateOf: 'a.txt' }]);
    expect(pending.size).toBe(0);
  });

  it('two files that swapped contents are both updated; deletes, then updates in order, then inserts', () => {
    const plan = planBatch(
      [candidate('a.txt', 'hb'), candidate('b.txt', 'ha')],
      [stored('a', 'a.txt', 'ha'), stored('b', 'b.txt', 'hb')],
      new Set(['a.txt', 'b.txt']),
    );
    // b's row held a's new hash and b comes later in the run: it is evicted and stored again.
    expect(plan.deletes).toEqual(['b']);
    expect(plan.updates.map((u) => [u.id, u.candidate.contentHash])).toEqual([['a', 'hb']]);
    expect(plan.inserts.map((c) => [c.path, c.contentHash])).toEqual([['b.txt', 'ha']]);
    expect(plan.outcomes.map((o) => o.kind)).toEqual(['updated', 'ingested']);
  });
});
