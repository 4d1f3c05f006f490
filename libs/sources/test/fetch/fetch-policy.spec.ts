import { ConfigError } from '@dossier/errors';
import { FetchPolicy, fetchPolicyFromEnv, parseContentType } from '../../src';

describe('FetchPolicy', () => {
  it('defaults to the production policy, with an empty test allowlist', () => {
    expect(FetchPolicy.parse({})).toEqual({
      allowedPorts: [80, 443, 8080, 8443],
      maxBytes: 5 * 1024 * 1024,
      timeoutMs: 15_000,
      connectTimeoutMs: 5_000,
      maxRedirects: 5,
      allowedContentTypes: ['text/html', 'application/xhtml+xml', 'text/plain', 'text/markdown', 'application/pdf'],
      userAgent: 'DossierBot/0.1 (+https://github.com/dossier)',
      testAllowlist: [],
    });
  });

  it('accepts ip:port, [ipv6]:port and CIDR allowlist entries and nothing else', () => {
    expect(FetchPolicy.parse({ testAllowlist: ['127.0.0.1:54321', '[::1]:8080', '127.0.0.0/8', '::1'] }).testAllowlist).toHaveLength(4);
    for (const bad of ['localhost:80', '127.0.0.1:0', '127.0.0.1:70000', '[127.0.0.1]:80', '10.0.0.1/8', '*']) {
      expect(() => FetchPolicy.parse({ testAllowlist: [bad] })).toThrow();
    }
  });
});

describe('fetchPolicyFromEnv', () => {
  it('reads sizes, timeouts and ports', () => {
    const policy = fetchPolicyFromEnv({
      DOSSIER_FETCH_MAX_BYTES: '1000',
      DOSSIER_FETCH_TIMEOUT_MS: '2500',
      DOSSIER_FETCH_ALLOWED_PORTS: '443, 8443',
    });
    expect(policy).toMatchObject({ maxBytes: 1000, timeoutMs: 2500, allowedPorts: [443, 8443], testAllowlist: [] });
    expect(fetchPolicyFromEnv({})).toEqual(FetchPolicy.parse({}));
  });

  it('honours the test allowlist only when NODE_ENV is test', () => {
    const warn = jest.fn();
    expect(
      fetchPolicyFromEnv({ NODE_ENV: 'test', DOSSIER_FETCH_TEST_ALLOWLIST: '127.0.0.1:5000,127.0.0.0/8' }, { warn }).testAllowlist,
    ).toEqual(['127.0.0.1:5000', '127.0.0.0/8']);
    expect(warn).not.toHaveBeenCalled();
    for (const nodeEnv of ['production', 'development', undefined]) {
      const ignored = fetchPolicyFromEnv({ NODE_ENV: nodeEnv, DOSSIER_FETCH_TEST_ALLOWLIST: '127.0.0.1:5000' }, { warn });
      expect(ignored.testAllowlist).toEqual([]);
    }
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[0]![0]).toMatch(/IGNORED/);
  });

  it('warns through process warnings by default', () => {
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      fetchPolicyFromEnv({ NODE_ENV: 'production', DOSSIER_FETCH_TEST_ALLOWLIST: '127.0.0.1:5000' });
      expect(spy).toHaveBeenCalledWith(expect.stringContaining('DOSSIER_FETCH_TEST_ALLOWLIST'), {
        code: 'DOSSIER_FETCH_TEST_ALLOWLIST_IGNORED',
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses malformed values with ConfigError', () => {
    expect(() => fetchPolicyFromEnv({ DOSSIER_FETCH_MAX_BYTES: 'lots' })).toThrow(ConfigError);
    expect(() => fetchPolicyFromEnv({ DOSSIER_FETCH_ALLOWED_PORTS: '80,http' })).toThrow(ConfigError);
    expect(() => fetchPolicyFromEnv({ DOSSIER_FETCH_ALLOWED_PORTS: '0' })).toThrow(ConfigError);
    expect(() => fetchPolicyFromEnv({ NODE_ENV: 'test', DOSSIER_FETCH_TEST_ALLOWLIST: 'localhost:80' })).toThrow(ConfigError);
  });
});

describe('response headers', () => {
  it('parses Content-Type', () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"')).toEqual({ mediaType: 'text/html', charset: 'iso-8859-1' });
    expect(parseContentType('application/pdf')).toEqual({ mediaType: 'application/pdf', charset: null });
    expect(parseContentType(undefined)).toEqual({ mediaType: '', charset: null });
    expect(parseContentType('garbage')).toEqual({ mediaType: '', charset: null });
  });
});
