import { createHash } from 'node:crypto';
import { contentTokens, HashingEmbedder, murmur3x86_32 } from '../src';

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot; // both unit length
}

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

describe('murmur3x86_32', () => {
  // Reference values of MurmurHash3_x86_32 (Appleby's SMHasher implementation).
  it.each([
    ['', 0, 0],
    ['', 1, 0x514e28b7],
    ['hello', 0, 0x248bfa47],
    ['The quick brown fox jumps over the lazy dog', 0, 0x2e4ff723],
    ['abc', 0, 0xb3dd93fa],
    ['abcd', 0x9747b28c, 0xf0478627],
  ])('hash of %j with seed %d', (text, seed, expected) => {
    expect(murmur3x86_32(new TextEncoder().encode(text), seed)).toBe(expected);
  });
});

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder();

  it('embeds into 384 unit-length dimensions by default, one vector per text in order', async () => {
    const out = await embedder.embed(['solar panels', 'wind turbines', 'hydroelectric dams']);
    expect(out).toHaveLength(3);
    for (const v of out) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(384);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(out[0]).toEqual(embedder.embedOne('solar panels'));
    expect(out[2]).toEqual(embedder.embedOne('hydroelectric dams'));
    expect(embedder.dimension).toBe(384);
  });

  it('is deterministic: same text, same vector, across calls and instances', async () => {
    const text = 'The European Central Bank raised interest rates by 25 basis points in July 2023.';
    const [a] = await embedder.embed([text]);
    const [b] = await new HashingEmbedder().embed([text]);
    expect(Buffer.from(a!.buffer).equals(Buffer.from(b!.buffer))).toBe(true);
  });

  it('never changes its output (stored vectors depend on it)', () => {
    const v = new HashingEmbedder({ dimension: 64 }).embedOne('Offshore wind capacity in the North Sea doubled between 2015 and 2020.');
    const digest = createHash('sha256').update(Buffer.from(v.buffer)).digest('hex');
    expect(digest).toBe(GOLDEN_DIGEST);
  });

  it('gives the zero vector for an empty text or one made only of stopwords', async () => {
    const [empty, stop, punct] = await embedder.embed(['', 'the of and to in it is was', '  ... !!! ']);
    for (const v of [empty!, stop!, punct!]) {
      expect(v).toHaveLength(384);
      expect(v.every((x) => x === 0)).toBe(true);
    }
  });

  it('ignores stopwords, case and punctuation', () => {
    expect(embedder.embedOne('The cat sat on the mat.')).toEqual(embedder.embedOne('cat sat mat'));
    expect(embedder.embedOne('CAT, sat; MAT!')).toEqual(embedder.embedOne('cat sat mat'));
    expect(embedder.embedOne('cat sat mat')).not.toEqual(embedder.embedOne('mat sat cat')); // bigrams keep some order
  });

  it('keeps negations: "not" is content', () => {
    expect(embedder.embedOne('the vaccine is not effective')).not.toEqual(embedder.embedOne('the vaccine is effective'));
  });

  it('places similar texts closer than unrelated ones', () => {
    const a = embedder.embedOne('Global sea levels rose by about 20 centimetres over the twentieth century.');
    const similar = embedder.embedOne('Over the twentieth century, global sea levels rose roughly 20 centimetres.');
    const related = embedder.embedOne('Sea levels are rising faster as ice sheets melt.');
    const unrelated = embedder.embedOne('The recipe calls for two cups of flour and a pinch of salt.');
    expect(cosine(a, similar)).toBeGreaterThan(0.6);
    expect(cosine(a, similar)).toBeGreaterThan(cosine(a, related));
    expect(cosine(a, related)).toBeGreaterThan(cosine(a, unrelated));
    expect(Math.abs(cosine(a, unrelated))).toBeLessThan(0.2);
  });

  it('damps repetition: a word said ten times does not drown the rest', () => {
    const once = embedder.embedOne('inflation unemployment');
    const spam = embedder.embedOne(`${'inflation '.repeat(10)}unemployment`);
    const unemployment = embedder.embedOne('unemployment');
    // Features: "inflation" ×10, "inflation inflation" ×9, "inflation unemployment", "unemployment".
    // Raw counts would leave "unemployment" a cosine of 1/√183 ≈ 0.07; 1 + ln tf gives 1/√23 ≈ 0.21.
    expect(cosine(spam, unemployment)).toBeGreaterThan(0.18);
    expect(cosine(spam, unemployment)).toBeLessThan(cosine(once, unemployment));
  });

  it('tokenises letters and digits of any script, with marks, after NFKC', () => {
    expect(contentTokens('Müller’s café ﬁnance: ２０２３ GDP, हिन्दी!')).toEqual(['müller', 'café', 'finance', '2023', 'gdp', 'हिन्दी']);
  });

  it('honours dimension and seed, and refuses bad options and inputs', async () => {
    const small = new HashingEmbedder({ dimension: 32 });
    expect(small.embedOne('hello world')).toHaveLength(32);
    const seeded = new HashingEmbedder({ seed: 7 });
    expect(seeded.name).not.toBe(embedder.name);
    expect(seeded.embedOne('hello world')).not.toEqual(embedder.embedOne('hello world'));
    expect(() => new HashingEmbedder({ dimension: 0 })).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    await expect(embedder.embed([42 as unknown as string])).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

// sha256 of the float32 bytes of the 64-dim embedding above; if this changes, every stored vector is stale.
const GOLDEN_DIGEST = 'ce0abc2ad3dcc10d0ec2e0b94825d6a35953cb8a5390dc6a17d6e3fe62b187ed';
