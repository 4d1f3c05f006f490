import { createHash } from 'node:crypto';

/**
 * A uuid derived from its parts (name-based, like UUIDv5): a turn that runs again after a crash names its question and
 * its evidence with the same ids, so its model requests are the same bytes and their recorded answers are reused.
 */
export function stableUuid(...parts: (string | number)[]): string {
  const h = createHash('sha1').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
