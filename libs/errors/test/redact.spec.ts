import {
  configuredSecrets,
  describeError,
  INTERNAL_ERROR_MESSAGE,
  publicError,
  redactDeep,
  redactSecrets,
  refreshConfiguredSecrets,
  registerSecret,
  TRANSIENT_ERROR_MESSAGE,
  ValidationError,
} from '../src';

/** A key with no recognisable shape: only the configured-secret path can find it. */
const SHAPELESS = 'Zq7pW2mXv9LcR4tYb8NkHs3Jd6Fg';

describe('redactSecrets: configured secrets', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    refreshConfiguredSecrets();
  });

  it('every key-, token-, secret- or password-named variable, the password of URL variables and OTLP header values', () => {
    process.env['OPENAI_API_KEY'] = SHAPELESS;
    process.env['OPENAI_EMBEDDINGS_API_KEY'] = 'emb-Lk2Pq9Wz4Xc7Vb1Nm';
    process.env['TAVILY_API_KEY'] = 'TavilyPlain123456';
    process.env['BRAVE_API_KEY'] = 'BSAbraveKey987654';
    process.env['ADMIN_API_KEY'] = 'admin-key-0123456789';
    process.env['DATABASE_URL'] = 'postgresql://dossier:pg%2Fp%40ss-word@db:5432/dossier';
    process.env['REDIS_URL'] = 'redis://:redisPassw0rd@redis:6379';
    process.env['OTEL_EXPORTER_OTLP_HEADERS'] = 'x-honeycomb-team=hcTeamKey12345,other=value-long-enough';
    // The environment is read once and cached; a test that changes it says so.
    refreshConfiguredSecrets();
    const text = [
      `openai ${SHAPELESS}`,
      'embeddings emb-Lk2Pq9Wz4Xc7Vb1Nm',
      'tavily TavilyPlain123456 brave BSAbraveKey987654 admin admin-key-0123456789',
      'pg pg/p@ss-word and pg%2Fp%40ss-word, redis redisPassw0rd',
      'otlp hcTeamKey12345',
    ].join('\n');
    const out = redactSecrets(text);
    for (const secret of [
      SHAPELESS,
      'emb-Lk2Pq9Wz4Xc7Vb1Nm',
      'TavilyPlain123456',
      'BSAbraveKey987654',
      'admin-key-0123456789',
      'pg/p@ss-word',
      'pg%2Fp%40ss-word',
      'redisPassw0rd',
      'hcTeamKey12345',
    ]) {
      expect({ secret, leaked: out.includes(secret) }).toEqual({ secret, leaked: false });
    }
    expect(out).toContain('openai [redacted]');
    expect(configuredSecrets({ SHORT_API_KEY: 'abc', EMPTY_TOKEN: '', PORT: '8080' })).toEqual([]);
  });

  it('a key registered in code (not in the environment), and the JSON-escaped form of a secret in a log line', () => {
    registerSecret('given-in-code-"quoted"\\key');
    const line = JSON.stringify({ msg: 'failed with given-in-code-"quoted"\\key' });
    expect(redactSecrets(line)).toBe(JSON.stringify({ msg: 'failed with [redacted]' }));
  });

  it("a provider's own secrets passed explicitly: longest first, too short ignored", () => {
    expect(redactSecrets('key abcd1234 and abcd1234-extra, abc', ['abcd1234', 'abcd1234-extra', 'abc'])).toBe(
      'key [redacted] and [redacted], abc',
    );
  });
});

describe('redactSecrets: anything shaped like a credential', () => {
  it.each([
    ['Authorization: Bearer sk-proj-abcdefghijklmnop1234', 'Authorization: [redacted]'],
    ['proxy said: authorization=Bearer 0123456789abcdef', 'proxy said: authorization=[redacted]'],
    ['{"Authorization":"Bearer abcdefgh12345678","x-api-key":"k-1234567890"}', '{"Authorization":"[redacted]","x-api-key":"[redacted]"}'],
    ['{\\"authorization\\":\\"Bearer abcdefgh12345678\\"}', '{\\"authorization\\":\\"[redacted]\\"}'],
    ['X-Subscription-Token: BSA123456789', 'X-Subscription-Token: [redacted]'],
    ['sent bearer eyJhbGciOiJIUzI1NiJ9.e30.sig', 'sent bearer [redacted]'],
    ['Basic dXNlcjpwYXNzd29yZA==', 'Basic [redacted]'],
    ['key sk-abcdefghijklmnopqrstuvwx in text', 'key [redacted] in text'],
    ['tavily tvly-dev-AbCdEf123456 refused', 'tavily [redacted] refused'],
    ['dossier key dsk_0123456789ab_SECRETsecretSECRET', 'dossier key [redacted]'],
    ['GET https://api.example.com/search?q=lake&key=AIzaSyA-1234&x=1', 'GET https://api.example.com/search?q=lake&key=[redacted]&x=1'],
    ['url ?api_key=abc123&access_token=xyz789', 'url ?api_key=[redacted]&access_token=[redacted]'],
    ['connect postgresql://dossier:hunter2@db:5432/x', 'connect postgresql://dossier:[redacted]@db:5432/x'],
    ['redis://:s3cret@redis:6379 down', 'redis://:[redacted]@redis:6379 down'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
    // Idempotent: redacting again changes nothing.
    expect(redactSecrets(expected)).toBe(expected);
  });

  it('leaves ordinary text alone', () => {
    const text =
      'Basic information about the task-force and the risk-assessment; monkey=3, max tokens=400; ' +
      'a Bearer token is required; https://example.org/page?q=lake; postgres://db:5432/x; Authorization failed';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('the error paths apply it', () => {
  it('describeError redacts a foreign error; a DossierError is redacted on construction, details included', () => {
    const foreign = new Error('401 Incorrect API key: Authorization: Bearer sk-live-abcdefghijklmnopqrst');
    expect(describeError(foreign).message).toBe('401 Incorrect API key: Authorization: [redacted]');
    const ours = new ValidationError('upstream said Bearer abcdefgh12345678', { details: { body: 'sk-abcdefghijklmnopqrstuv' } });
    expect(ours.message).toBe('upstream said Bearer [redacted]');
    expect(ours.details).toEqual({ body: '[redacted]' });
    expect(String(ours.stack)).not.toContain('abcdefgh12345678');
  });

  it('publicError: our own message for our errors, a reason code and a fixed message for anything else', () => {
    expect(publicError(new ValidationError('The question is empty'))).toEqual({
      code: 'validation_failed',
      message: 'The question is empty',
    });
    const prismaLike = Object.assign(new Error('Invalid `prisma.approvalDecision.create()` invocation: value out of range'), {
      code: 'P2007',
    });
    expect(publicError(prismaLike)).toEqual({ code: 'internal_error', message: INTERNAL_ERROR_MESSAGE });
    expect(publicError(new TypeError('Invalid Date'))).toEqual({ code: 'internal_error', message: INTERNAL_ERROR_MESSAGE });
    expect(publicError(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }))).toEqual({
      code: 'transient_error',
      message: TRANSIENT_ERROR_MESSAGE,
    });
  });

  it('redactDeep copies plain objects and arrays with every string redacted', () => {
    const value = { a: ['Bearer abcdefgh12345678', 3], b: { c: null, d: 'fine' } };
    expect(redactDeep(value)).toEqual({ a: ['Bearer [redacted]', 3], b: { c: null, d: 'fine' } });
    expect(value.a[0]).toBe('Bearer abcdefgh12345678');
  });
});
