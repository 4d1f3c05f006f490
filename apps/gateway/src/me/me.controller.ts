import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { Engine, RunOptions, SEARCH_PROVIDER_NAMES, type MeView } from '@dossier/contracts';
import { TenantRepository } from '@dossier/db';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import type { GatewayEnv } from '../gateway-env';
import { TenantLimits } from '../limits/tenant-limits';
import { GATEWAY_ENV } from '../gateway-tokens';

const DEFAULTS = RunOptions.parse({});

/**
 * `GET /v1/me`: the caller's principal, role, tenant, effective policy, and its limits with where it stands. A client reads it to offer only
 * what the API would accept; the API still enforces every rule on each request.
 */
@Controller('v1/me')
@UseGuards(ApiKeyGuard)
export class MeController {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly limits: TenantLimits,
    @Inject(GATEWAY_ENV) private readonly env: GatewayEnv,
  ) {}

  @Get()
  async me(@CurrentCaller() caller: Caller): Promise<MeView> {
    const tenant = await this.tenants.find(caller.tenantId);
    const policy = caller.policy;
    return {
      principal: { id: caller.principalId, name: caller.principalName, role: caller.role },
      canWrite: caller.role !== 'viewer',
      key: { prefix: caller.prefix },
      tenant: { id: caller.tenantId, name: tenant?.name ?? '' },
      policy: {
        requiredGates: policy.requiredGates,
        engines: policy.engines ?? [...Engine.options],
        searchProviders: policy.searchProviders ?? [...SEARCH_PROVIDER_NAMES],
        caps: policy.caps,
        rateLimit: {
          perSecond: policy.rateLimit?.perSecond ?? this.env.RATE_LIMIT_PER_SECOND,
          burst: policy.rateLimit?.burst ?? this.env.RATE_LIMIT_BURST,
        },
      },
      limits: await this.limits.usage(caller.tenantId, caller.keyId, policy),
      defaults: {
        engine: DEFAULTS.engine,
        searchProviders: DEFAULTS.searchProviders,
        perspectives: Math.min(DEFAULTS.perspectives, policy.caps.perspectives ?? Infinity),
        maxIterations: Math.min(DEFAULTS.maxIterations, policy.caps.maxIterations ?? Infinity),
      },
    };
  }
}
