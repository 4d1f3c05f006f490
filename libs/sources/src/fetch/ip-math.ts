import { isIP } from 'node:net';

/**
 * IP addresses as integers (BigInt for both families, so one CIDR routine serves both). Written by hand
 * on purpose: the address checks are the SSRF boundary, and every form they accept is spelled out here.
 */

export type IpFamily = 4 | 6;

export interface ParsedIp {
  family: IpFamily;
  /** The address as an unsigned integer: 32 bits for IPv4, 128 for IPv6. */
  value: bigint;
}

export interface Cidr {
  family: IpFamily;
  base: bigint;
  prefix: number;
}

const BITS: Readonly<Record<IpFamily, number>> = { 4: 32, 6: 128 };

/** Strict dotted-quad IPv4 ("a.b.c.d", decimal octets) → 32-bit integer, or null. */
export function parseIPv4(text: string): bigint | null {
  if (isIP(text) !== 4) return null;
  return text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

/** IPv6 (any compressed form, optional trailing dotted quad, optional %zone) → 128-bit integer, or null. */
export function parseIPv6(text: string): bigint | null {
  const address = text.replace(/%.*$/, '');
  if (isIP(address) !== 6) return null;
  let groups: string[];
  let head = address;
  let embedded: bigint | null = null;
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail) {
    const [, prefix = '', dotted = ''] = tail;
    // Keep a "::" that ends the prefix; drop the single ":" that separates it from the dotted quad.
    head = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
    embedded = parseIPv4(dotted);
    if (embedded === null) return null;
  }
  const slots = embedded === null ? 8 : 6;
  const halves = head.split('::');
  const split = (part: string): string[] => (part === '' ? [] : part.split(':'));
  if (halves.length > 2) return null;
  const [leftText = '', rightText] = halves;
  if (rightText !== undefined) {
    const left = split(leftText);
    const right = split(rightText);
    const missing = slots - left.length - right.length;
    if (missing < 1) return null;
    groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  } else {
    groups = split(leftText);
  }
  if (groups.length !== slots) return null;
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  if (embedded !== null) value = (value << 32n) | embedded;
  return value;
}

/** Any IP literal (IPv6 may be written in brackets, as in a URL host) → family and integer, or null. */
export function parseIp(text: string): ParsedIp | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const v4 = parseIPv4(bare);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseIPv6(bare);
  if (v6 !== null) return { family: 6, value: v6 };
  return null;
}

/** A 32-bit integer → dotted quad. */
export function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** "10.0.0.0/8", "fc00::/7", or a bare address (a /32 or /128) → Cidr. Host bits must be zero. */
export function parseCidr(text: string): Cidr | null {
  const [addressText, prefixText, ...rest] = text.trim().split('/');
  if (addressText === undefined || rest.length > 0) return null;
  const ip = parseIp(addressText);
  if (ip === null) return null;
  const bits = BITS[ip.family];
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  if ((ip.value & ~mask(ip.family, prefix) & ((1n << BigInt(bits)) - 1n)) !== 0n) return null;
  return { family: ip.family, base: ip.value, prefix };
}

/** Like parseCidr, for the constant tables in this lib: a typo there is a programming error. */
export function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (parsed === null) throw new Error(`invalid CIDR constant: ${text}`);
  return parsed;
}

function mask(family: IpFamily, prefix: number): bigint {
  const bits = BigInt(BITS[family]);
  const all = (1n << bits) - 1n;
  return (all << (bits - BigInt(prefix))) & all;
}

export function cidrContains(range: Cidr, ip: ParsedIp): boolean {
  return range.family === ip.family && (ip.value & mask(ip.family, range.prefix)) === range.base;
}
