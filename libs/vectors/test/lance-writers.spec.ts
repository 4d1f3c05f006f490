import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService, type ChildService } from '@dossier/testing';
import { LanceVectorStore, pointId } from '../src';

// Several processes writing into one store directory at once: what our own store refused (one process per
// directory) and the reason LanceDB replaced it (docs/decisions/0033). Four processes start together, race to
// create the collection, insert their points in batches and rewrite their first batch; every point must be there.

const WRITERS = 4;
const POINTS = 200;
const BATCH = 25;

describe('LanceVectorStore shared by several processes', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dossier-lance-writers-'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps every point of four processes upserting into one directory at once', async () => {
    const dir = join(root, 'vectors');
    const go = join(root, 'go');
    const children: ChildService[] = Array.from({ length: WRITERS }, (_, w) =>
      startChildService(join(__dirname, 'fixtures/lance-writer.ts'), {}, `lance-writer-${w}`, [
        dir,
        go,
        String(w),
        String(POINTS),
        String(BATCH),
      ]),
    );
    try {
      await Promise.all(children.map((c, w) => c.waitForOutput(new RegExp(`writer ${w} ready`))));
      await writeFile(go, 'go');
      const exits = await Promise.all(children.map((c) => c.exited));
      children.forEach((c, w) =>
        expect({ writer: w, exit: exits[w]!.code, output: exits[w]!.code === 0 ? '' : c.output() }).toEqual({
          writer: w,
          exit: 0,
          output: '',
        }),
      );
    } finally {
      for (const c of children) c.kill('SIGKILL');
    }

    const store = await LanceVectorStore.open({ directory: dir });
    try {
      expect(await store.count('shared')).toBe(WRITERS * POINTS);
      for (let w = 0; w < WRITERS; w++) {
        expect(await store.count('shared', { tenantId: 't1', runId: `writer-${w}` })).toBe(POINTS);
        // The rewritten first batch holds its second round; the rest, their first.
        const first = Array.from({ length: 8 }, (_, d) => Math.sin(w * 1000 + d + 1));
        const [hit] = await store.search('shared', first, { filter: { tenantId: 't1', runId: `writer-${w}` }, limit: 1 });
        expect(hit).toMatchObject({ id: pointId(`w${w}:0`), score: expect.closeTo(1, 5), payload: { i: 0, round: 2 } });
        const last = Array.from({ length: 8 }, (_, d) => Math.sin(w * 1000 + (POINTS - 1) * 8 + d + 1));
        const [lastHit] = await store.search('shared', last, { filter: { tenantId: 't1', runId: `writer-${w}` }, limit: 1 });
        expect(lastHit).toMatchObject({ id: pointId(`w${w}:${POINTS - 1}`), payload: { round: 1 } });
      }
    } finally {
      await store.close();
    }
  });
});
