import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { TenantPolicy } from '@dossier/contracts';
import type { KeyIdentity } from '@dossier/db';

/** The caller of a /v1 request, set by the ApiKeyGuard. */
export interface Caller extends KeyIdentity {
  policy: TenantPolicy;
  /** Written into the audit log and gate decisions. */
  actor: string;
}

export type AuthedRequest = FastifyRequest & { caller?: Caller };

/** Injects the authenticated caller into a handler parameter. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const caller = ctx.switchToHttp().getRequest<AuthedRequest>().caller;
  // The guard runs before every handler that asks for a caller; reaching here without one is a wiring bug.
  if (!caller) throw new Error('CurrentCaller used on a route without ApiKeyGuard');
  return caller;
});
