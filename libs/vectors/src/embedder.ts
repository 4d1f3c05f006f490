import { z } from 'zod';
import { ValidationError } from '@dossier/errors';
import { murmur3x86_32 } from './hashing/murmur3';
import { ENGLISH_STOPWORDS } from './hashing/stopwords';
import { contentTokens } from './hashing/tokenize';

/** Turns texts into vectors of one fixed dimension; one output per input, same order. */
export interface Embedder {
  /** Identifies the vector space: vectors from embedders with different names are not comparable. */
  readonly name: string;
  readonly dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export const HashingEmbedderOptions = z
  .object({
    dimension: z.number().int().min(8).max(65536).default(384),
    /** Seed of the feature hash; a different seed is a different vector space. */
    seed: z.number().int().min(0).max(0xffffffff).default(0),
  })
  .strict();
export type HashingEmbedderOptionsInput = z.input<typeof HashingEmbedderOptions>;

const TEXTS = z.array(z.string());

/**
 * Offline, deterministic embedder by feature hashing: unigrams and bigrams of the content words are hashed
 * (MurmurHash3) into `dimension` buckets with a hash-derived sign, so collisions cancel out on average
 * instead of piling up; term frequency is damped (1 + ln tf) so a repeated word does not drown the rest;
 * the result is L2-normalised. Same text, same options → the same vector, on any machine, forever — which
 * is why the hash and tokenizer live in this library rather than in a dependency.
 */
export class HashingEmbedder implements Embedder {
  readonly name: string;
  readonly dimension: number;
  private readonly seed: number;
  private readonly encoder = new TextEncoder();

  constructor(options: HashingEmbedderOptionsInput = {}) {
    const parsed = HashingEmbedderOptions.safeParse(options);
    if (!parsed.success)
      throw new ValidationError(`Invalid hashing embedder options: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
    this.dimension = parsed.data.dimension;
    this.seed = parsed.data.seed;
    this.name = this.seed === 0 ? 'hashing-v1' : `hashing-v1-s${this.seed}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const parsed = TEXTS.safeParse(texts);
    if (!parsed.success)
      throw new ValidationError(`embed() takes an array of strings: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
    return parsed.data.map((text) => this.embedOne(text));
  }

  /** Synchronous form for callers that embed inside a hot loop. */
  embedOne(text: string): Float32Array {
    const counts = featureCounts(contentTokens(text, ENGLISH_STOPWORDS));
    const acc = new Float64Array(this.dimension);
    for (const [feature, tf] of counts) {
      const h = murmur3x86_32(this.encoder.encode(feature), this.seed);
      // Bucket from the whole hash, sign from its top bit: murmur's finaliser mixes every bit, so the two
      // are effectively independent.
      const bucket = h % this.dimension;
      const sign = h >>> 31 === 1 ? -1 : 1;
      acc[bucket] += sign * (1 + Math.log(tf));
    }
    let norm = 0;
    for (let i = 0; i < acc.length; i++) norm += acc[i] * acc[i];
    const out = new Float32Array(this.dimension);
    // No features (empty text, only stopwords) or features that cancelled exactly: the zero vector, which
    // scores 0 against everything rather than NaN.
    if (norm === 0) return out;
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < acc.length; i++) out[i] = acc[i] * inv;
    return out;
  }
}

/** Unigram and bigram counts. A bigram is "a b": unigrams never contain a space, so the two never collide. */
function featureCounts(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < tokens.length; i++) {
    const unigram = tokens[i];
    counts.set(unigram, (counts.get(unigram) ?? 0) + 1);
    if (i + 1 < tokens.length) {
      const bigram = `${unigram} ${tokens[i + 1]}`;
      counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
    }
  }
  return counts;
}
