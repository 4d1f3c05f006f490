import { randomBytes } from 'node:crypto';
import { hashSecret } from './api-key-secret';

/**
 * Share tokens look like `dsh_<prefix>_<secret>`, shaped as API keys are (decision 0009) but with their own marker, so
 * the API-key guard refuses one without a query (a share link authenticates nowhere but the shared report's routes)
 * and a key is never taken for a share. The secret (32 random bytes) is shown once and stored as its SHA-256.
 */
const TOKEN_PATTERN = /^dsh_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedShareToken {
  token: string;
  prefix: string;
  secretHash: string;
}

export function generateShareToken(): GeneratedShareToken {
  const prefix = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { token: `dsh_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) };
}

/** Splits a presented token; null when it is not shaped like one (refused without a database query). */
export function parseShareToken(presented: string): { prefix: string; secret: string } | null {
  const m = TOKEN_PATTERN.exec(presented.trim());
  return m ? { prefix: m[1]!, secret: m[2]! } : null;
}
