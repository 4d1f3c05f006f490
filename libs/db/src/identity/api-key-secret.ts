import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `dsk_<prefix>_<secret>`. The prefix (12 lower-case hex characters) is public and
 * finds the row; the secret (32 random bytes, base64url) is shown once and stored only as its SHA-256.
 * A fast hash is right here: the secret has 256 bits of entropy, so there is nothing to brute-force,
 * and every request must verify it (docs/decisions/0009).
 */
const KEY_PATTERN = /^dsk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedApiKey {
  /** The whole key, to hand to its owner once. */
  key: string;
  prefix: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const prefix = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { key: `dsk_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Splits a presented key; null when it is not shaped like one of ours (refused without a database query). */
export function parseApiKey(presented: string): { prefix: string; secret: string } | null {
  const m = KEY_PATTERN.exec(presented.trim());
  return m ? { prefix: m[1]!, secret: m[2]! } : null;
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
