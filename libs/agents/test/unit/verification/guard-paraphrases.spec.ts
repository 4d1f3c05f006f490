import { readFileSync } from 'node:fs';
import path from 'node:path';
import { paraphrase, seededRandom } from '@dossier/testing';
import { splitSentences } from '../../../src/offline/nlp/sentences';
import { guardSentence } from '../../../src/verification/guard';

const CORPUS = path.resolve(__dirname, '../../../../../examples/corpus');
const DOCS = ['krwa-annual-water-report-2024.md', 'eskerford-university-study-summary.md', 'kessmark-climate-office-bulletin-2024.md'];

/** Every sentence of real documents, reworded by the realistic model's paraphraser: the guard lets each through. */
describe('the guard on paraphrases of the example corpus', () => {
  const sentences = DOCS.flatMap((d) =>
    splitSentences(readFileSync(path.join(CORPUS, d), 'utf8'))
      .map((s) => s.text.replace(/\s+/g, ' ').trim())
      .filter((t) => t.length > 30 && /[a-z]/.test(t) && !t.startsWith('|') && !t.startsWith('#')),
  );

  it('raises no false alarm on any of them', () => {
    const random = seededRandom('guard-paraphrases');
    const changed = sentences.map((s) => ({ s, p: paraphrase(s, random) })).filter((x) => x.p !== x.s);
    expect(changed.length).toBeGreaterThan(20);
    const alarms = changed.filter((x) => !guardSentence(x.p, [x.s]).ok).map((x) => `${x.p} <= ${x.s}`);
    expect(alarms).toEqual([]);
  });
});
