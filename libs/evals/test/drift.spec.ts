import { readdirSync } from 'node:fs';
import { listEvalSets, loadEvalSet, normalize, phrasingMatches, SETS_DIR, type LoadedEvalSet } from '../src';
import { CorpusTexts } from './gold-reports';

/*
 * A set cannot drift from its corpus: every source exists, and every key point is stated by its source file — at
 * least one phrasing matches the whole text of the file as the ingester extracts it (docs/decisions/0021).
 */
describe('every shipped eval set matches its corpus', () => {
  it('ships at least the examples set', async () => {
    expect(await listEvalSets()).toContain('lake-varen');
  });

  describe.each(readdirSync(SETS_DIR))('set %s', (name) => {
    let loaded: LoadedEvalSet;
    let texts: CorpusTexts;
    beforeAll(async () => {
      loaded = await loadEvalSet(name);
      texts = new CorpusTexts(loaded);
    });
    afterAll(() => loaded?.dispose());

    it('has at least 12 questions, and every source and key-point source is a file of its corpus', () => {
      expect(loaded.set.questions.length).toBeGreaterThanOrEqual(12);
      const files = new Set(loaded.files);
      const missing = loaded.set.questions.flatMap((q) => [...q.sources, ...q.keyPoints.map((k) => k.source)].filter((s) => !files.has(s)));
      expect(missing).toEqual([]);
    });

    it('states every key point in its source file, in one of its phrasings', async () => {
      const drifted: string[] = [];
      for (const q of loaded.set.questions) {
        for (const k of q.keyPoints) {
          const text = normalize(await texts.text(k.source));
          if (!k.phrasings.some((p) => phrasingMatches(p, text))) drifted.push(`${q.id}: "${k.fact}" not in ${k.source}`);
        }
      }
      expect(drifted).toEqual([]);
    });
  });
});
