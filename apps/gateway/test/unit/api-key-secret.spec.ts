import { generateApiKey, hashSecret, parseApiKey, secretMatches } from '@dossier/db';

describe('API key secrets', () => {
  it('dsk_<12 hex prefix>_<43 base64url secret>; only the hash of the secret is kept', () => {
    const k = generateApiKey();
    expect(k.key).toMatch(/^dsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const parsed = parseApiKey(k.key)!;
    expect(parsed.prefix).toBe(k.prefix);
    expect(k.secretHash).toBe(hashSecret(parsed.secret));
    expect(k.key).not.toContain(k.secretHash);
    expect(secretMatches(parsed.secret, k.secretHash)).toBe(true);
  });

  it('two keys never share a prefix or secret (random)', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    expect(new Set(keys.map((k) => k.prefix)).size).toBe(200);
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
  });

  it('a wrong or altered secret does not match; malformed keys do not parse', () => {
    const k = generateApiKey();
    const { secret } = parseApiKey(k.key)!;
    const altered = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(secretMatches(altered, k.secretHash)).toBe(false);
    expect(secretMatches(secret, 'not-hex')).toBe(false);
    for (const bad of ['', 'dsk_', `dsk_${k.prefix}`, k.key.replace('dsk_', 'sk_'), `${k.key}x`, k.key.toUpperCase()])
      expect(parseApiKey(bad)).toBeNull();
  });
});
