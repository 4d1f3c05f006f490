import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client';
import { DatabaseError } from 'pg';
import { z } from 'zod';
import {
  classifyError,
  ConfigError,
  DependencyUnavailableError,
  describeError,
  DossierError,
  GateNotOpenError,
  HandlerRegistryError,
  InvalidStepPayloadError,
  InvalidStepResultError,
  isDependencyUnavailable,
  isTransient,
  RetryableError,
  RunNotFoundError,
  RunStateError,
  StepBusyError,
  UnrecoverableError,
  ValidationError,
  WriteConflictError,
} from '../src';

/** An Error carrying a `code`, as Node's net errors, pg and Prisma errors do. */
function coded(code: string, message = `failed with ${code}`, cause?: unknown): Error {
  const err = new Error(message, cause === undefined ? undefined : { cause }) as Error & { code: string };
  err.code = code;
  return err;
}

function pgError(sqlstate: string): Error {
  const err = new DatabaseError(`pg error ${sqlstate}`, 0, 'error');
  err.code = sqlstate;
  return err;
}

function prismaError(code: string): Error {
  return new PrismaClientKnownRequestError(`prisma error ${code}`, { code, clientVersion: '7.10.0' });
}

function zodError(): Error {
  const parsed = z.strictObject({ a: z.int() }).safeParse({ a: 'x' });
  if (parsed.success) throw new Error('expected a parse failure');
  return parsed.error;
}

describe('our error classes', () => {
  const unrecoverable = [
    ConfigError,
    InvalidStepPayloadError,
    InvalidStepResultError,
    HandlerRegistryError,
    RunNotFoundError,
    RunStateError,
    GateNotOpenError,
    ValidationError,
  ];
  const retryable = [StepBusyError, DependencyUnavailableError];

  it.each(unrecoverable.map((C) => [C.name, C] as const))('%s is unrecoverable', (_name, C) => {
    const err = new C('nope');
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(err).toBeInstanceOf(DossierError);
    expect(err.retryable).toBe(false);
    expect(classifyError(err)).toBe('unrecoverable');
  });

  it.each(retryable.map((C) => [C.name, C] as const))('%s is retryable', (_name, C) => {
    const err = new C('later');
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.retryable).toBe(true);
    expect(classifyError(err)).toBe('retryable');
  });

  it('carry their class name, a stable code, runId, details and cause', () => {
    const cause = new Error('root');
    const err = new RunNotFoundError('Run r1 not found', { runId: 'r1', details: { a: 1 }, cause });
    expect(err.name).toBe('RunNotFoundError');
    expect(err.code).toBe('run_not_found');
    expect(err.runId).toBe('r1');
    expect(err.details).toEqual({ a: 1 });
    expect(err.cause).toBe(cause);
    expect(err.message).toBe('Run r1 not found');
    expect(err).toBeInstanceOf(Error);
  });

  it('without options: no cause property, runId and details undefined', () => {
    const err = new StepBusyError('busy');
    expect('cause' in err).toBe(false);
    expect(err.runId).toBeUndefined();
    expect(err.details).toBeUndefined();
  });

  it('codes are distinct per class', () => {
    const codes = [...unrecoverable, ...retryable].map((C) => new C('x').code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('classifyError', () => {
  it('ZodError → unrecoverable', () => {
    const err = zodError();
    expect(err.name).toBe('ZodError');
    expect(err).toBeInstanceOf(Error);
    expect(classifyError(err)).toBe('unrecoverable');
  });

  it.each([
    ['TypeError', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['RangeError', new RangeError('Invalid array length')],
    ['SyntaxError', new SyntaxError('Unexpected token')],
    ['ReferenceError', new ReferenceError('x is not defined')],
  ])('%s → unrecoverable (programming error)', (_name, err) => {
    expect(classifyError(err)).toBe('unrecoverable');
  });

  it('a TypeError with a retryable code is still a programming error', () => {
    const err = Object.assign(new TypeError('bad'), { code: 'ECONNREFUSED' });
    expect(classifyError(err)).toBe('unrecoverable');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND'])('an Error with code %s → retryable', (code) => {
    expect(classifyError(coded(code))).toBe('retryable');
  });

  it.each([
    ['40001', 'serialization_failure'],
    ['40P01', 'deadlock_detected'],
    ['55P03', 'lock_not_available'],
    ['08006', 'connection_failure'],
    ['08001', 'sqlclient_unable_to_establish_sqlconnection'],
    ['53300', 'too_many_connections'],
    ['57P01', 'admin_shutdown'],
    ['57P03', 'cannot_connect_now'],
  ])('pg SQLSTATE %s (%s) → retryable', (sqlstate) => {
    expect(classifyError(pgError(sqlstate))).toBe('retryable');
  });

  it.each(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034'])(
    'Prisma %s (connection, pool, transaction conflict) → retryable',
    (code) => {
      expect(classifyError(prismaError(code))).toBe('retryable');
    },
  );

  it.each(['P2002', 'P2003', 'P2025', 'P1000', 'P2000'])('Prisma %s (constraint, not found, auth, bad input) → unrecoverable', (code) => {
    expect(classifyError(prismaError(code))).toBe('unrecoverable');
  });

  it('a unique violation stays unrecoverable; a row missing after an insert that skipped it is retryable (docs/decisions/0012)', () => {
    // Every write on a unique key that concurrent callers reach is atomic, so one left over is a bug to fix, not a race to retry.
    expect(classifyError(prismaError('P2002'))).toBe('unrecoverable');
    expect(classifyError(pgError('23505'))).toBe('unrecoverable');
    expect(classifyError(new WriteConflictError('collection "x" existed when it was inserted but not when it was read back'))).toBe(
      'retryable',
    );
  });

  describe("Prisma's driver-adapter errors (meta.driverAdapterError.cause), found by the chaos soak", () => {
    /** As Prisma 7 reports a failed $queryRaw: P2010 outside, what the pg adapter saw inside. */
    function rawQueryError(cause: Record<string, unknown>): Error {
      return new PrismaClientKnownRequestError('Raw query failed.', {
        code: 'P2010',
        clientVersion: '7.10.0',
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
      });
    }

    it.each(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionWriteConflict'])(
      'a raw query that failed with %s → retryable (P2010 alone would say unrecoverable)',
      (kind) => {
        expect(classifyError(rawQueryError({ kind, host: '127.0.0.1', port: 5432 }))).toBe('retryable');
      },
    );

    it.each([
      ['57P03', 'retryable'],
      ['57P01', 'retryable'],
      ['08006', 'retryable'],
      ['40P01', 'retryable'],
      ['42601', 'unrecoverable'],
      ['23505', 'unrecoverable'],
    ])('a raw query that Postgres refused with SQLSTATE %s → %s', (code, expected) => {
      expect(classifyError(rawQueryError({ kind: 'postgres', code, severity: 'FATAL', message: 'x' }))).toBe(expected);
    });

    it('a raw query with a bad statement stays unrecoverable', () => {
      expect(classifyError(rawQueryError({ kind: 'GenericJs', id: 1 }))).toBe('unrecoverable');
    });
  });

  it('the Prisma rule goes by the code, not by the class', () => {
    expect(classifyError(coded('P2002'))).toBe('unrecoverable');
    expect(classifyError(coded('P1001'))).toBe('retryable');
  });

  it('an unknown Error (no code, no cause) → retryable: the attempt count bounds it', () => {
    expect(classifyError(new Error('something odd'))).toBe('retryable');
  });

  it('an Error with an unknown code → retryable', () => {
    expect(classifyError(coded('E_SOMETHING'))).toBe('retryable');
  });

  it('a non-string code is ignored', () => {
    expect(classifyError(Object.assign(new Error('x'), { code: 2002 }))).toBe('retryable');
    expect(classifyError(Object.assign(new Error('x'), { code: 'P2002'.split('') }))).toBe('retryable');
  });

  it.each([
    ['a string', 'boom'],
    ['null', null],
    ['undefined', undefined],
    ['a plain object', { message: 'x' }],
  ])('a thrown non-Error (%s) → unrecoverable', (_what, value) => {
    expect(classifyError(value)).toBe('unrecoverable');
  });

  describe('cause chains', () => {
    it('a wrapper Error takes the class of its cause: TypeError → unrecoverable', () => {
      expect(classifyError(new Error('handler failed', { cause: new TypeError('bug') }))).toBe('unrecoverable');
    });

    it('wrapper of ECONNREFUSED → retryable', () => {
      expect(classifyError(new Error('db call failed', { cause: coded('ECONNREFUSED') }))).toBe('retryable');
    });

    it('wrapper of Prisma P2002 → unrecoverable; of P1001 → retryable', () => {
      expect(classifyError(new Error('insert failed', { cause: prismaError('P2002') }))).toBe('unrecoverable');
      expect(classifyError(new Error('insert failed', { cause: prismaError('P1001') }))).toBe('retryable');
    });

    it('wrapper of a ZodError → unrecoverable', () => {
      expect(classifyError(new Error('bad response', { cause: zodError() }))).toBe('unrecoverable');
    });

    it('wrapper of our classes → their class', () => {
      expect(classifyError(new Error('w', { cause: new ConfigError('c') }))).toBe('unrecoverable');
      expect(classifyError(new Error('w', { cause: new StepBusyError('b') }))).toBe('retryable');
    });

    it('follows several levels', () => {
      const deep = new Error('l1', { cause: new Error('l2', { cause: new Error('l3', { cause: pgError('23505') }) }) });
      const deepBug = new Error('l1', { cause: new Error('l2', { cause: new Error('l3', { cause: new TypeError('bug') }) }) });
      expect(classifyError(deepBug)).toBe('unrecoverable');
      // 23505 (unique_violation): the same statement violates the constraint again, so no retry.
      expect(classifyError(deep)).toBe('unrecoverable');
    });

    it('our own error decides for itself, whatever its cause', () => {
      expect(classifyError(new DependencyUnavailableError('db down', { cause: new TypeError('x') }))).toBe('retryable');
      expect(classifyError(new InvalidStepResultError('bad', { cause: coded('ECONNRESET') }))).toBe('unrecoverable');
    });

    it('a known code on the wrapper wins over its cause', () => {
      expect(classifyError(coded('P2002', 'wrapped', coded('ECONNREFUSED')))).toBe('unrecoverable');
      expect(classifyError(coded('ETIMEDOUT', 'wrapped', new TypeError('x')))).toBe('retryable');
    });

    it('an unknown code on the wrapper defers to the cause', () => {
      expect(classifyError(coded('E_WRAPPED', 'wrapped', new TypeError('x')))).toBe('unrecoverable');
    });

    it('a non-Error cause is ignored (unknown → retryable)', () => {
      expect(classifyError(new Error('w', { cause: 'string cause' }))).toBe('retryable');
      expect(classifyError(new Error('w', { cause: { code: 'P2002' } }))).toBe('retryable');
    });

    it('an error that is its own cause terminates', () => {
      const err = new Error('self') as Error & { cause: unknown };
      err.cause = err;
      expect(classifyError(err)).toBe('retryable');
    });

    it('a cycle of two errors terminates (no stack overflow)', () => {
      // A cause cycle (a → b → a) must end, not recurse until the stack overflows.
      const a = new Error('a') as Error & { cause: unknown };
      const b = new Error('b', { cause: a });
      a.cause = b;
      expect(() => classifyError(a)).not.toThrow();
      expect(classifyError(a)).toBe('retryable');
    });
  });
});

describe('isDependencyUnavailable', () => {
  const unreachable = new PrismaClientKnownRequestError("Can't reach database server at 127.0.0.1:5432", {
    code: 'P2010',
    clientVersion: '7.10.0',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 } } },
  });

  it.each([
    ['Prisma P1001', prismaError('P1001')],
    ['a raw query against an unreachable server (P2010)', unreachable],
    ['pg SQLSTATE 57P01 (admin shutdown)', pgError('57P01')],
    ['pg SQLSTATE 53300 (too many connections)', pgError('53300')],
    ['ECONNREFUSED', coded('ECONNREFUSED')],
    ["pg's lost connection", new Error('Connection terminated unexpectedly')],
    ["ioredis's closed connection", new Error('Connection is closed.')],
    ['a wrapper of any of these', new Error('lookup failed', { cause: prismaError('P1001') })],
    ['our DependencyUnavailableError', new DependencyUnavailableError('redis down')],
  ])('%s → unavailable', (_what, err) => {
    expect(isDependencyUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', prismaError('P2002')],
    ['a syntax error', pgError('42601')],
    ['a serialization failure (a retry, not an outage)', pgError('40001')],
    ['a programming error', new TypeError('x is undefined')],
    ['an unknown Error', new Error('something odd')],
    ['another retryable error of ours', new StepBusyError('busy')],
    ['a non-Error', 'boom'],
  ])('%s → not unavailable', (_what, err) => {
    expect(isDependencyUnavailable(err)).toBe(false);
  });
});

describe('isTransient', () => {
  it.each([
    ['an expired transaction (P2028)', prismaError('P2028')],
    ['a write conflict (P2034)', prismaError('P2034')],
    ['a serialization failure (40001)', pgError('40001')],
    ['a deadlock (40P01)', pgError('40P01')],
    ['an unreachable database (P1001)', prismaError('P1001')],
    ['a wrapper of an expired transaction', new Error('start failed', { cause: prismaError('P2028') })],
  ])('%s → transient', (_what, err) => {
    expect(isTransient(err)).toBe(true);
  });

  it.each([
    ['a unique violation', prismaError('P2002')],
    ['a programming error', new TypeError('x')],
    ['an unknown Error', new Error('odd')],
    ['our StepBusyError', new StepBusyError('busy')],
  ])('%s → not transient', (_what, err) => {
    expect(isTransient(err)).toBe(false);
  });
});

describe('describeError', () => {
  it('our errors: class name, our code, message', () => {
    expect(describeError(new GateNotOpenError('gate plan is not open'))).toEqual({
      name: 'GateNotOpenError',
      code: 'gate_not_open',
      message: 'gate plan is not open',
    });
  });

  it('a coded Error: its name and code', () => {
    expect(describeError(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toEqual({
      name: 'Error',
      code: 'ECONNREFUSED',
      message: 'connect ECONNREFUSED 127.0.0.1:5432',
    });
    expect(describeError(prismaError('P2002'))).toEqual({
      name: 'PrismaClientKnownRequestError',
      code: 'P2002',
      message: 'prisma error P2002',
    });
  });

  it("an Error without a code: code 'error'", () => {
    expect(describeError(new TypeError('x'))).toEqual({ name: 'TypeError', code: 'error', message: 'x' });
  });

  it('a non-Error: NonError and its string form', () => {
    expect(describeError('boom')).toEqual({ name: 'NonError', code: 'error', message: 'boom' });
    expect(describeError(42)).toEqual({ name: 'NonError', code: 'error', message: '42' });
  });

  it('never includes a stack', () => {
    const d = describeError(new Error('x'));
    expect(Object.keys(d).sort()).toEqual(['code', 'message', 'name']);
  });
});
