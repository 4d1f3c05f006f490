import { cidrContains, parseCidr, parseIp, type Cidr, type ParsedIp } from './ip-math';

/**
 * Entries of the test-only allowlist. `127.0.0.1:54321` or `[::1]:54321` lets exactly that address and
 * port through (whatever the port policy says): a test's local server and nothing else on the machine.
 * A CIDR (`127.0.0.0/8`) or bare address lets those addresses through on the policy's ports only.
 */
export type AllowlistEntry = { kind: 'address-port'; ip: ParsedIp; port: number } | { kind: 'cidr'; range: Cidr };

export function parseAllowlistEntry(entry: string): AllowlistEntry | null {
  const withPort = /^(?:\[([^\]]+)\]|([^:/[\]]+)):(\d{1,5})$/.exec(entry.trim());
  if (withPort) {
    const [, bracketed, plain = '', portText] = withPort;
    const ip = parseIp(bracketed ?? plain);
    const port = Number(portText);
    // Brackets are for IPv6 only, and an IPv6 address needs them (its colons would eat the port).
    if (ip === null || (bracketed !== undefined) !== (ip.family === 6) || port < 1 || port > 65535) return null;
    return { kind: 'address-port', ip, port };
  }
  const range = parseCidr(entry);
  return range === null ? null : { kind: 'cidr', range };
}

export class TestAllowlist {
  private readonly entries: readonly AllowlistEntry[];

  constructor(entries: readonly string[]) {
    this.entries = entries.map((entry) => {
      const parsed = parseAllowlistEntry(entry);
      // The policy schema validated these already; reaching this is a programming error.
      if (parsed === null) throw new Error(`invalid test allowlist entry: ${entry}`);
      return parsed;
    });
  }

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  /** Whether some entry names this port explicitly (so the port check waits for the address). */
  mentionsPort(port: number): boolean {
    return this.entries.some((e) => e.kind === 'address-port' && e.port === port);
  }

  /** An `address:port` entry matches exactly: address and port are both allowed. */
  allowsAddressAndPort(address: string, port: number): boolean {
    const ip = parseIp(address);
    return (
      ip !== null &&
      this.entries.some((e) => e.kind === 'address-port' && e.port === port && e.ip.family === ip.family && e.ip.value === ip.value)
    );
  }

  /** A CIDR entry contains the address: the address is allowed, the port still has to pass the policy. */
  allowsAddress(address: string): boolean {
    const ip = parseIp(address);
    return ip !== null && this.entries.some((e) => e.kind === 'cidr' && cidrContains(e.range, ip));
  }
}
