import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TenantPolicy } from '@dossier/contracts';
import { ApiKeyRepository, TenantRepository } from '@dossier/db';
import { createLogger } from '@dossier/telemetry';
import { AuthenticationError, ForbiddenError } from '../common/http-errors';
import type { AuthedRequest } from './identity';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { TenantRateLimiter } from './tenant-rate-limiter';

const logger = createLogger('gateway');

/** The presented key: `Authorization: Bearer dsk_…` or `X-API-Key: dsk_…`. */
export function presentedKey(req: AuthedRequest): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '');
  const header = req.headers['x-api-key'];
  return typeof header === 'string' ? header : undefined;
}

const WRITES_CHECKED_DOWNSTREAM = 'dossier:writes-checked-downstream';

/**
 * Marks a handler whose POST is a transport, not a change: `/mcp` carries read-only tools too (get_run,
 * get_report, ...) and every tool acts through `/v1` with the caller's own key, where this guard refuses a viewer's
 * writes. So a viewer key may open an MCP session and read; start_research, approve_gate and add_document still get
 * the 403 of the `/v1` call they make, as a tool error.
 */
export const WritesCheckedDownstream = () => SetMetadata(WRITES_CHECKED_DOWNSTREAM, true);

/**
 * Authenticates every /v1 request against Postgres (no cache: a revoked key is refused at once), loads the
 * tenant's policy and applies the tenant's rate limit. Every handler then scopes its queries by caller.tenantId.
 * An address that keeps failing to authenticate is refused (429) before its keys are even looked up.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly tenants: TenantRepository,
    private readonly rateLimiter: TenantRateLimiter,
    private readonly authFailures: AuthFailureLimiter,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    await this.authFailures.checkAllowed(req.ip);
    const key = presentedKey(req);
    if (!key) throw await this.refuse(req, 'An API key is required: Authorization: Bearer dsk_…');
    const identity = await this.keys.verify(key);
    if (!identity) throw await this.refuse(req, 'The API key is not valid (unknown, malformed or revoked)');
    const tenant = await this.tenants.find(identity.tenantId);
    if (!tenant) throw await this.refuse(req, 'The API key is not valid (unknown, malformed or revoked)');
    const parsed = TenantPolicy.safeParse(tenant.policy ?? {});
    if (!parsed.success) {
      // An operator wrote a policy this version cannot read: run with defaults rather than lock the tenant out, but say so.
      logger.error({ tenantId: tenant.id, issues: parsed.error.issues }, 'tenant policy is invalid; using defaults');
    }
    const policy = parsed.success ? parsed.data : TenantPolicy.parse({});
    await this.rateLimiter.check(tenant.id, policy);
    // Tenancy decides what a key can see (404 outside it); the role only whether it may change anything.
    const writes = req.method !== 'GET' && req.method !== 'HEAD';
    if (identity.role === 'viewer' && writes && !this.reflector.get<boolean>(WRITES_CHECKED_DOWNSTREAM, context.getHandler())) {
      throw new ForbiddenError(`The key ${identity.prefix} is a viewer key: it can read but not ${req.method} here`, {
        details: { role: identity.role },
      });
    }
    req.caller = { ...identity, policy, actor: `${identity.principalName} (key ${identity.prefix})` };
    return true;
  }

  /** A failed authentication: counted against the client's address; the 401, or a 429 once the address is over its budget. */
  private async refuse(req: AuthedRequest, message: string): Promise<Error> {
    return (await this.authFailures.recordFailure(req.ip)) ?? new AuthenticationError(message);
  }
}
