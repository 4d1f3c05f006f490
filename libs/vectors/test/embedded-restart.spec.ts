import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '@dossier/testing';
import { EmbeddedVectorStore, pointId } from '../src';

describe('EmbeddedVectorStore across a process crash', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dossier-vectors-restart-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write of a SIGKILLed process and takes over its lock', async () => {
    const child = startChildService(join(__dirname, 'fixtures/write-then-hang.ts'), { VECTORS_DIR: dir });
    try {
      await child.waitForOutput(/written by \d+/);
      // The child holds the directory while it lives.
      await expect(EmbeddedVectorStore.open({ directory: dir })).rejects.toMatchObject({ code: 'vector_store_locked' });
      expect((await readFile(join(dir, 'LOCK'), 'utf8')).trim()).toBe(String(child.pid));
    } finally {
      child.kill('SIGKILL');
    }
    expect((await child.exited).signal).toBe('SIGKILL');

    const store = await EmbeddedVectorStore.open({ directory: dir });
    try {
      expect(await store.count('evidence')).toBe(1);
      const hits = await store.search('evidence', [0, 0, 1], { filter: { tenantId: 't1' }, limit: 5 });
      expect(hits).toEqual([{ id: pointId('survivor'), score: expect.closeTo(1, 5), payload: { tenantId: 't1', kind: 'claim' } }]);
      await expect(store.ensureCollection('evidence', 4)).rejects.toMatchObject({ code: 'vector_dimension_mismatch' });
    } finally {
      await store.close();
    }
  });
});
