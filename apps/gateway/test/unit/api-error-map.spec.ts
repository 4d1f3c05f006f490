import { Prisma } from '@dossier/db';
import { mapError } from '../../src/common/api-error.filter';

function prismaError(code: string, message = `prisma ${code}`): Error {
  return new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: '7.10.0' });
}

/**
 * Errors of a slow or briefly unreachable database are a 503 the client retries, never a 500: found by the chaos
 * soak, where a starved machine expired the run-creation transaction (P2028) and clients got `500 internal_error`.
 */
describe('mapError: transient database errors', () => {
  it.each([
    [
      'an expired interactive transaction (P2028)',
      prismaError('P2028', 'Transaction API error: A query cannot be executed on an expired transaction.'),
    ],
    ['a write conflict or deadlock (P2034)', prismaError('P2034')],
    ['an unreachable database (P1001)', prismaError('P1001')],
  ])('%s → 503 service_unavailable with Retry-After', (_what, err) => {
    expect(mapError(err)).toEqual({
      status: 503,
      body: { error: 'service_unavailable', message: expect.stringMatching(/try again/), details: null },
      headers: { 'retry-after': '2' },
    });
  });

  it('a unique violation stays a 409, and a programming error a 500 that shows nothing of it', () => {
    expect(mapError(prismaError('P2002')).status).toBe(409);
    expect(mapError(new TypeError('x is undefined'))).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'Internal error', details: null },
    });
  });
});
