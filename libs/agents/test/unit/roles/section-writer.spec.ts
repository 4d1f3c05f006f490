import { paragraphSizes, sectionWriter } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.sectionWriter;
const excerpts = new Map(base.evidence.map((e) => [e.id, e.excerpt]));

describe('sectionWriter (offline)', () => {
  const { paragraphs } = sectionWriter.offline(base);
  const sentences = paragraphs.flatMap((p) => p.sentences);

  it('writes only verbatim evidence sentences, each cited', () => {
    expect(sentences.length).toBeGreaterThan(3);
    for (const s of sentences) {
      expect(s.evidenceIds.length).toBeGreaterThanOrEqual(1);
      expect(s.evidenceIds.some((id) => excerpts.get(id)!.includes(s.text))).toBe(true);
    }
  });

  it('cites all evidence of a claim on one sentence', () => {
    const opened = sentences.find((s) => s.text.startsWith('The Golden Gate Bridge opened'))!;
    expect(opened.evidenceIds).toEqual(['E1', 'E2']);
  });

  it('follows the claim order', () => {
    const order = ['opened to traffic', '$35 million', '1,280 metres', 'seismic', 'Construction began'];
    const positions = order.map((p) => sentences.findIndex((s) => s.text.includes(p)));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('keeps the sentence a pronoun refers to', () => {
    const i = sentences.findIndex((s) => s.text === 'It was led by chief engineer Joseph Strauss.');
    expect(i).toBeGreaterThan(0);
    expect(sentences[i - 1]!.text).toBe('Construction began in 1933.');
  });

  it('writes paragraphs of 2–4 sentences', () => {
    for (const p of paragraphs) {
      expect(p.sentences.length).toBeGreaterThanOrEqual(2);
      expect(p.sentences.length).toBeLessThanOrEqual(4);
    }
  });

  it('skips claims whose evidence is missing', () => {
    const out = sectionWriter.offline({ ...base, claims: [{ id: 'C9', statement: 'Nothing here.', evidenceIds: ['E404'] }] });
    expect(out.paragraphs).toEqual([]);
  });

  it('does not repeat a sentence', () => {
    const doubled = { ...base, claims: [...base.claims, { ...base.claims[0]!, id: 'C1b' }] };
    const texts = sectionWriter.offline(doubled).paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
    expect(new Set(texts).size).toBe(texts.length);
  });
});

describe('paragraphSizes', () => {
  it.each([
    [0, []],
    [1, [1]],
    [2, [2]],
    [4, [4]],
    [5, [3, 2]],
    [8, [4, 4]],
    [9, [3, 3, 3]],
    [13, [4, 3, 3, 3]],
  ])('%i sentences → %j', (n, sizes) => {
    expect(paragraphSizes(n)).toEqual(sizes);
  });
});
