import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { TenantPolicy } from '@dossier/contracts';
import { ReportShareRepository, TenantRepository } from '@dossier/db';
import type { SharedRun } from '@dossier/runs';
import { presentedKey } from '../auth/api-key.guard';
import { AuthFailureLimiter } from '../auth/auth-failure-limiter';
import type { AuthedRequest } from '../auth/identity';
import { TenantRateLimiter } from '../auth/tenant-rate-limiter';
import { AuthenticationError, ShareGoneError } from '../common/http-errors';

type SharedRequest = AuthedRequest & { shared?: SharedRun };

/**
 * Authenticates the shared report's routes (/v1/shared…) by a share token, `Authorization: Bearer dsh_…`, and only
 * them: an API key is no share token here, and a share token is no API key anywhere else (ApiKeyGuard refuses its
 * shape), so a link reaches exactly the run it was made for (docs/decisions/0051). Checked against Postgres on every
 * request: revoked or expired, it is a 410 at once. Failures count against the address like a wrong key's, and the
 * holder's requests against the tenant's rate limit.
 */
@Injectable()
export class ShareTokenGuard implements CanActivate {
  constructor(
    private readonly shares: ReportShareRepository,
    private readonly tenants: TenantRepository,
    private readonly rateLimiter: TenantRateLimiter,
    private readonly authFailures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SharedRequest>();
    await this.authFailures.checkAllowed(req.ip);
    const token = presentedKey(req);
    const checked = token ? await this.shares.check(token) : ({ status: 'invalid' } as const);
    if (checked.status === 'invalid') {
      throw (
        (await this.authFailures.recordFailure(req.ip)) ??
        new AuthenticationError('This share link is not valid (unknown or malformed): ask whoever sent it for a new one')
      );
    }
    if (checked.status !== 'valid') {
      const when = checked.status === 'revoked' ? checked.share.revokedAt! : checked.share.expiresAt;
      throw new ShareGoneError(
        checked.status === 'revoked'
          ? 'This share link was revoked by the report’s owners: ask them for a new one'
          : 'This share link has expired: ask the report’s owners for a new one',
        { details: { reason: checked.status, at: when.toISOString() } },
      );
    }
    const { share } = checked;
    const tenant = await this.tenants.find(share.tenantId);
    if (!tenant) throw new AuthenticationError('This share link is not valid (unknown or malformed): ask whoever sent it for a new one');
    const policy = TenantPolicy.safeParse(tenant.policy ?? {});
    await this.rateLimiter.check(tenant.id, policy.success ? policy.data : TenantPolicy.parse({}));
    req.shared = { shareId: share.id, tenantId: share.tenantId, runId: share.runId, expiresAt: share.expiresAt };
    return true;
  }
}

/** The shared run of a request the ShareTokenGuard let through. */
export const CurrentShare = createParamDecorator((_: unknown, ctx: ExecutionContext): SharedRun => {
  const shared = ctx.switchToHttp().getRequest<SharedRequest>().shared;
  if (!shared) throw new Error('CurrentShare used on a route without ShareTokenGuard');
  return shared;
});
