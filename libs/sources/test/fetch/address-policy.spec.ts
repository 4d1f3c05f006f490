import { cidrContains, isForbiddenAddress, parseCidr, parseIp, parseNumericHost } from '../../src';
import { parseIPv6 } from '../../src/fetch/ip-math';

describe('isForbiddenAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.255.1.2', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'cloud metadata endpoint'],
    ['169.254.1.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.168.0.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['168.63.129.16', 'cloud metadata endpoint (Azure'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud metadata endpoint (AWS IPv6)'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'IPv4-mapped 127.0.0.1: loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped 127.0.0.1: loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped 10.0.0.1: private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped 169.254.169.254: cloud metadata endpoint'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped 192.168.1.1: private'],
    ['64:ff9b::10.0.0.1', 'NAT64 10.0.0.1: private'],
    ['64:ff9b::7f00:1', 'NAT64 127.0.0.1: loopback'],
    ['2002:7f00:1::', '6to4 127.0.0.1: loopback'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['not-an-ip', 'not an IP address'],
    ['2130706433', 'not an IP address'],
    ['', 'not an IP address'],
  ])('%s is forbidden (%s)', (ip, reason) => {
    expect(isForbiddenAddress(ip)).toContain(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255', // just below CGNAT
    '100.128.0.0', // just above CGNAT
    '172.15.255.255', // just below 172.16/12
    '172.32.0.0', // just above
    '192.0.3.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '169.253.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:93.184.216.34', // IPv4-mapped, public inside
    '64:ff9b::8.8.8.8', // NAT64, public inside
    '2002:0808:0808::1', // 6to4 of 8.8.8.8
    'fbff:ffff::1', // just below fc00::/7
    'fe7f::1', // just below fe80::/10
  ])('%s is allowed', (ip) => {
    expect(isForbiddenAddress(ip)).toBeNull();
  });
});

describe('IP parsing and CIDR math', () => {
  it('parses IPv6 in every compressed form to the same integer', () => {
    const one = parseIPv6('0:0:0:0:0:0:0:1');
    expect(one).toBe(1n);
    expect(parseIPv6('::1')).toBe(one);
    expect(parseIPv6('::0.0.0.1')).toBe(one);
    expect(parseIPv6('ffff::')).toBe(0xffffn << 112n);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toBe(0x00010002000300040005000600070008n);
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toBe(0x00010002000300040005000601020304n);
    expect(parseIPv6('::ffff:1.2.3.4')).toBe(parseIPv6('::ffff:102:304'));
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(parseIPv6('12345::')).toBeNull();
    expect(parseIPv6('1.2.3.4')).toBeNull();
  });

  it('contains exactly the addresses of a range', () => {
    const range = parseCidr('172.16.0.0/12')!;
    expect(cidrContains(range, parseIp('172.16.0.0')!)).toBe(true);
    expect(cidrContains(range, parseIp('172.31.255.255')!)).toBe(true);
    expect(cidrContains(range, parseIp('172.32.0.0')!)).toBe(false);
    expect(cidrContains(range, parseIp('::ffff:172.16.0.1')!)).toBe(false); // other family
    expect(cidrContains(parseCidr('fc00::/7')!, parseIp('fdff::1')!)).toBe(true);
    expect(cidrContains(parseCidr('fc00::/7')!, parseIp('fe00::1')!)).toBe(false);
    expect(parseCidr('10.0.0.1/8')).toBeNull(); // host bits set
    expect(parseCidr('10.0.0.0/33')).toBeNull();
    expect(parseCidr('10.0.0.0/x')).toBeNull();
    expect(parseCidr('127.0.0.1')).toEqual({ family: 4, base: 0x7f000001n, prefix: 32 });
  });
});

describe('parseNumericHost (as the WHATWG URL parser reads hosts)', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0X7F000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0177.0000.0000.0001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['10.0.0.1.', '10.0.0.1'], // trailing dot
    ['0', '0.0.0.0'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['[::1]', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['[::ffff:10.0.0.1]', '::ffff:a00:1'],
  ])('%s → %s, which is forbidden', (host, address) => {
    expect(parseNumericHost(host)?.address).toBe(address);
    expect(new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`).hostname.replace(/^\[|\]$/g, '')).toBe(
      address,
    );
    expect(isForbiddenAddress(address)).not.toBeNull();
  });

  it.each(['example.com', 'localhost', '127.0.0.1.example.com', '0x7f000001.example', 'not a host'])('%s is not numeric', (host) => {
    expect(parseNumericHost(host)).toBeNull();
  });
});
