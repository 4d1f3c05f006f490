import { ConfigError } from '@dossier/errors';
import { ConductorEnv, DatabaseEnv, loadConfig, WorkerEnv } from '../src';

const VALID = {
  DATABASE_URL: 'postgresql://dossier:secret@localhost:5432/dossier',
  REDIS_URL: 'redis://localhost:6379',
} as const;

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('parses a minimal valid environment and applies every default', () => {
    expect(loadConfig(WorkerEnv, { ...VALID })).toEqual({
      ...VALID,
      DATABASE_POOL_MAX: 10,
      DATABASE_POOL_MIN: 2,
      DATABASE_POOL_IDLE_MS: 60_000,
      LOG_LEVEL: 'info',
      WORKER_CONCURRENCY: 8,
      STEP_LOCK_MS: 30_000,
      STALLED_INTERVAL_MS: 1_000,
      STEP_ATTEMPTS: 5,
      STEP_BACKOFF_MS: 2_000,
      SHUTDOWN_GRACE_MS: 25_000,
      VECTOR_DIR: '.dossier/vectors',
    });
  });

  it('ConductorEnv adds its own defaults on top of WorkerEnv', () => {
    const cfg = loadConfig(ConductorEnv, { ...VALID });
    expect(cfg).toMatchObject({
      RELAY_INTERVAL_MS: 1_000,
      RECONCILE_INTERVAL_MS: 5_000,
      RELAY_MIN_AGE_MS: 2_000,
      STALL_WATCH_INTERVAL_MS: 500,
      WORKER_CONCURRENCY: 8,
    });
  });

  it('coerces numeric strings to numbers', () => {
    const cfg = loadConfig(WorkerEnv, {
      ...VALID,
      WORKER_CONCURRENCY: '12',
      STEP_LOCK_MS: '45000',
      DATABASE_POOL_MAX: '25',
      SHUTDOWN_GRACE_MS: '0',
    });
    expect(cfg.WORKER_CONCURRENCY).toBe(12);
    expect(cfg.STEP_LOCK_MS).toBe(45_000);
    expect(cfg.DATABASE_POOL_MAX).toBe(25);
    expect(cfg.SHUTDOWN_GRACE_MS).toBe(0);
    expect(typeof cfg.WORKER_CONCURRENCY).toBe('number');
  });

  it('drops variables the schema does not know', () => {
    const cfg = loadConfig(WorkerEnv, { ...VALID, PATH: '/usr/bin', HOME: '/root' }) as Record<string, unknown>;
    expect(cfg).not.toHaveProperty('PATH');
    expect(cfg).not.toHaveProperty('HOME');
  });

  it('accepts postgres:// and rediss:// too', () => {
    const cfg = loadConfig(WorkerEnv, { DATABASE_URL: 'postgres://h/db', REDIS_URL: 'rediss://h:6380' });
    expect(cfg.DATABASE_URL).toBe('postgres://h/db');
    expect(cfg.REDIS_URL).toBe('rediss://h:6380');
  });

  it('missing DATABASE_URL → ConfigError naming DATABASE_URL as required', () => {
    const err = configError(() => loadConfig(WorkerEnv, { REDIS_URL: VALID.REDIS_URL }));
    expect(err.message).toContain('DATABASE_URL');
    expect(err.message).toContain('required');
    expect(err.message).toBe('Invalid configuration: DATABASE_URL: required but not set');
    expect(err.code).toBe('config_invalid');
    expect(err.retryable).toBe(false);
    expect(err.details).toEqual({ variables: ['DATABASE_URL'] });
  });

  it('empty DATABASE_URL counts as not set', () => {
    const err = configError(() => loadConfig(WorkerEnv, { ...VALID, DATABASE_URL: '' }));
    expect(err.message).toContain('DATABASE_URL: required but not set');
  });

  it.each(['http://x', 'not a url', 'postgresql://db/x', 'redis'])('malformed REDIS_URL %p → message names REDIS_URL', (value) => {
    const err = configError(() => loadConfig(WorkerEnv, { ...VALID, REDIS_URL: value }));
    expect(err.message).toContain('REDIS_URL');
    expect(err.message).toContain('must be a valid URL');
    expect(err.message).not.toContain('DATABASE_URL');
    expect(err.details).toEqual({ variables: ['REDIS_URL'] });
  });

  it('a REDIS_URL is not accepted as DATABASE_URL', () => {
    const err = configError(() => loadConfig(DatabaseEnv, { DATABASE_URL: VALID.REDIS_URL }));
    expect(err.message).toBe('Invalid configuration: DATABASE_URL: must be a valid URL');
  });

  it('lists every problem, each with its variable name', () => {
    const err = configError(() => loadConfig(WorkerEnv, { REDIS_URL: 'http://x', WORKER_CONCURRENCY: 'many', LOG_LEVEL: 'loud' }));
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'WORKER_CONCURRENCY', 'LOG_LEVEL']) expect(err.message).toContain(`${name}:`);
    expect((err.details as { variables: string[] }).variables.sort()).toEqual([
      'DATABASE_URL',
      'LOG_LEVEL',
      'REDIS_URL',
      'WORKER_CONCURRENCY',
    ]);
  });

  it.each([
    ['WORKER_CONCURRENCY', '0'],
    ['WORKER_CONCURRENCY', '2.5'],
    ['STEP_LOCK_MS', '999'],
    ['STALLED_INTERVAL_MS', '-1'],
    ['DATABASE_POOL_MAX', 'ten'],
  ])('%s=%p is rejected with its name', (name, value) => {
    const err = configError(() => loadConfig(WorkerEnv, { ...VALID, [name]: value }));
    expect(err.message).toContain(`${name}:`);
    expect(err.message).not.toContain('required but not set');
  });

  it('QUEUE_PREFIX must be letters, digits, - and _', () => {
    expect(loadConfig(WorkerEnv, { ...VALID, QUEUE_PREFIX: 'test-file_1' }).QUEUE_PREFIX).toBe('test-file_1');
    const err = configError(() => loadConfig(WorkerEnv, { ...VALID, QUEUE_PREFIX: 'a:b' }));
    expect(err.message).toContain('QUEUE_PREFIX: letters, digits, - and _ only');
  });

  it('the message never echoes a secret-bearing value', () => {
    const err = configError(() => loadConfig(WorkerEnv, { DATABASE_URL: 'mysql://user:hunter2@db/x', REDIS_URL: VALID.REDIS_URL }));
    expect(err.message).toContain('DATABASE_URL');
    expect(err.message).not.toContain('hunter2');
  });

  it('defaults to process.env', () => {
    const saved = { ...process.env };
    try {
      process.env.DATABASE_URL = VALID.DATABASE_URL;
      process.env.REDIS_URL = VALID.REDIS_URL;
      process.env.WORKER_CONCURRENCY = '3';
      expect(loadConfig(WorkerEnv).WORKER_CONCURRENCY).toBe(3);
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });

  describe('empty variables (e.g. `STEP_ATTEMPTS=` in a compose file)', () => {
    // loadConfig treats '' as "not set" when it words the message, so a variable that has a default should get it.
    it('SHUTDOWN_GRACE_MS= (empty) gets its default 25000, not 0', () => {
      // An empty variable is unset: its default applies (not 0).
      expect(loadConfig(WorkerEnv, { ...VALID, SHUTDOWN_GRACE_MS: '' }).SHUTDOWN_GRACE_MS).toBe(25_000);
    });

    it('STEP_ATTEMPTS= (empty) gets its default 5 instead of failing as "required but not set"', () => {
      expect(loadConfig(WorkerEnv, { ...VALID, STEP_ATTEMPTS: '' }).STEP_ATTEMPTS).toBe(5);
    });

    it('an empty LOG_LEVEL (a defaulted enum) is not reported as "required"', () => {
      let message = '';
      try {
        loadConfig(WorkerEnv, { ...VALID, LOG_LEVEL: '' });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).not.toContain('LOG_LEVEL: required but not set');
    });
  });
});
