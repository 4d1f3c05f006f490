import { isIP } from 'node:net';
import { cidr, cidrContains, formatIPv4, parseIp, type Cidr, type ParsedIp } from './ip-math';

interface Range {
  range: Cidr;
  reason: string;
}

const range = (text: string, reason: string): Range => ({ range: cidr(text), reason });

// Specific entries first: the first match names the reason, and "cloud metadata" says more than "link-local".
const IPV4_FORBIDDEN: readonly Range[] = [
  range('169.254.169.254/32', 'cloud metadata endpoint'),
  range('168.63.129.16/32', 'cloud metadata endpoint (Azure WireServer)'),
  range('100.100.100.200/32', 'cloud metadata endpoint (Alibaba)'),
  range('0.0.0.0/8', 'unspecified ("this network")'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT (shared address space)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  range('192.88.99.0/24', '6to4 relay anycast (deprecated)'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  range('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'broadcast'),
  range('240.0.0.0/4', 'reserved'),
];

const IPV6_FORBIDDEN: readonly Range[] = [
  range('fd00:ec2::254/128', 'cloud metadata endpoint (AWS IPv6)'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible (deprecated)'),
  range('64:ff9b:1::/48', 'NAT64 local use'),
  range('100::/64', 'discard-only'),
  range('2001::/32', 'Teredo tunnel (hides the IPv4 it reaches)'),
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local (deprecated)'),
  range('ff00::/8', 'multicast'),
];

// IPv6 ranges whose addresses carry an IPv4 address that the packet ends up at: judged by that address.
const IPV4_MAPPED = cidr('::ffff:0:0/96');
const NAT64 = cidr('64:ff9b::/96');
const SIX_TO_FOUR = cidr('2002::/16');

function forbiddenIPv4(value: bigint): string | null {
  const ip: ParsedIp = { family: 4, value };
  return IPV4_FORBIDDEN.find((r) => cidrContains(r.range, ip))?.reason ?? null;
}

function embeddedReason(kind: string, v4: bigint): string | null {
  const reason = forbiddenIPv4(v4);
  return reason === null ? null : `${kind} ${formatIPv4(v4)}: ${reason}`;
}

/**
 * Why an address must not be connected to, or null when it may be. Accepts IPv4 and IPv6 literals
 * (IPv6 with or without brackets or a zone); anything that is not an IP address is refused (fail closed).
 * IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are judged by the IPv4
 * address they carry, since that is where the connection would land.
 */
export function isForbiddenAddress(ip: string): string | null {
  const parsed = parseIp(ip);
  if (parsed === null) return 'not an IP address';
  if (parsed.family === 4) return forbiddenIPv4(parsed.value);
  if (cidrContains(IPV4_MAPPED, parsed)) return embeddedReason('IPv4-mapped', parsed.value & 0xffffffffn);
  if (cidrContains(NAT64, parsed)) return embeddedReason('NAT64', parsed.value & 0xffffffffn);
  if (cidrContains(SIX_TO_FOUR, parsed)) return embeddedReason('6to4', (parsed.value >> 80n) & 0xffffffffn);
  return IPV6_FORBIDDEN.find((r) => cidrContains(r.range, parsed))?.reason ?? null;
}

/**
 * The IP address a URL host stands for, or null when it is a name. Uses the WHATWG URL parser itself, so a
 * host is read exactly as the request will be made: decimal (2130706433), hex (0x7f000001), octal
 * (0177.0.0.1) and short (127.1) IPv4 forms all come out as the dotted quad 127.0.0.1, and IPv6 in
 * brackets comes out compressed without them. Throws nothing: an unparseable host is not numeric.
 */
export function parseNumericHost(host: string): { address: string; family: 4 | 6 } | null {
  let hostname: string;
  try {
    hostname = host.startsWith('[') || isIP(host) !== 6 ? new URL(`http://${host}/`).hostname : new URL(`http://[${host}]/`).hostname;
  } catch {
    // Not a valid host at all: the caller's URL parsing reports that; here it just is not an IP literal.
    return null;
  }
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(bare);
  return family === 4 || family === 6 ? { address: bare, family } : null;
}
