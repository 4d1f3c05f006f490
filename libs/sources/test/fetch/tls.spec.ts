import { createServer, type Server } from 'node:https';
import { createSecureContext } from 'node:tls';
import { FetchTlsError, SafeFetcher, type ResolvedAddress } from '../../src';

// A self-signed certificate for "secure.test", made for this test only (openssl req -x509, P-256, 100 years).
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgvlQ1DqZaiuztfgCg
dqG+YsEwSHuaMqFfnLsC9Rtxx1KhRANCAAS8nPT8nuixTCJQ4rq+DDZDwawQWp6P
bb+jBQHfXVlg0xgZSlRlN6XGul1Z+yG2mxv3BNAMSKCv5dVMhugNkHO+
-----END PRIVATE KEY-----`;
const CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgIUaX5I3wVe5J9YTde3t+3qOHiP0ZswCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLc2VjdXJlLnRlc3QwIBcNMjYxMTI5MjEwMTI4WhgPMjEyNjEx
MDUyMTAxMjhaMBYxFDASBgNVBAMMC3NlY3VyZS50ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEvJz0/J7osUwiUOK6vgw2Q8GsEFqej22/owUB311ZYNMYGUpU
ZTelxrpdWfshtpsb9wTQDEigr+XVTIboDZBzvqNrMGkwHQYDVR0OBBYEFE472u+n
t8bVobkeQAeTAb7fLhFsMB8GA1UdIwQYMBaAFE472u+nt8bVobkeQAeTAb7fLhFs
MA8GA1UdEwEB/wQFMAMBAf8wFgYDVR0RBA8wDYILc2VjdXJlLnRlc3QwCgYIKoZI
zj0EAwIDSQAwRgIhAPDGVTLRLbHe5SXWYlptkvq3KdhNZmYe4zluX4SFRQ+DAiEA
rWLzRp9jnXsdaik1FbOOPUTIhYmJDuzDI9MONWc3n2o=
-----END CERTIFICATE-----`;

describe('SafeFetcher over TLS', () => {
  let server: Server;
  let port: number;
  const serverNames: (string | undefined)[] = [];

  beforeAll(async () => {
    const context = createSecureContext({ key: KEY, cert: CERT });
    server = createServer({
      key: KEY,
      cert: CERT,
      SNICallback: (name, cb) => {
        serverNames.push(name);
        cb(null, context);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('connects to the pinned address with the host name as SNI, and an untrusted certificate is a TLS error', async () => {
    const resolve = jest.fn(async (): Promise<ResolvedAddress[]> => [{ address: '127.0.0.1', family: 4 }]);
    const fetcher = new SafeFetcher({ testAllowlist: [`127.0.0.1:${port}`] }, { resolve });
    const err = await fetcher.fetch(`https://secure.test:${port}/`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchTlsError);
    expect(err).toMatchObject({ retryable: false, url: `https://secure.test:${port}/` });
    expect(resolve).toHaveBeenCalledTimes(1);
    // The handshake reached our server (through the pinned address) and named the original host.
    expect(serverNames).toEqual(['secure.test']);
  });
});
