import { timingSafeEqual, createHash } from 'node:crypto';

function same(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * The operator pages accept the ADMIN_API_KEY as `Authorization: Bearer <key>` (scripts) or as the
 * password of HTTP Basic auth (a browser asks for it by itself), any user name.
 */
export function adminAuthorized(authorization: string | undefined, adminKey: string): boolean {
  if (!authorization) return false;
  const bearer = /^bearer\s+(.+)$/i.exec(authorization);
  if (bearer) return same(bearer[1]!.trim(), adminKey);
  const basic = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization);
  if (!basic) return false;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && same(decoded.slice(colon + 1), adminKey);
}
