import { Inject, Injectable } from '@nestjs/common';
import type { MeView, TenantPolicy } from '@dossier/contracts';
import { PrismaService } from '@dossier/db';
import { TenantLimitError } from '@dossier/errors';
import type { GatewayEnv } from '../gateway-env';
import { GATEWAY_ENV } from '../gateway-tokens';
import { EventStreamLeases } from './event-stream-leases';

/** A tenant's limits: its policy's, each unset one the operator's default. */
export interface EffectiveLimits {
  runsInProgress: number;
  spendPerDayUsd: number;
  spendPerMonthUsd: number;
  eventStreamsPerKey: number;
}

function secondsUntil(next: Date, now: Date): number {
  return Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000));
}

/**
 * Limits per tenant and per key (issue 30): runs in progress (checked in the start's own transaction, RunCommands),
 * model spend per UTC day and month (checked here before a run starts, replays and resumes included), event streams
 * per key (EventStreamLeases). Each refusal is a 429 naming the limit; `/v1/me` shows every figure.
 */
@Injectable()
export class TenantLimits {
  constructor(
    private readonly prisma: PrismaService,
    private readonly streams: EventStreamLeases,
    @Inject(GATEWAY_ENV) private readonly env: GatewayEnv,
  ) {}

  of(policy: TenantPolicy): EffectiveLimits {
    return {
      runsInProgress: policy.limits.runsInProgress ?? this.env.RUNS_IN_PROGRESS_PER_TENANT,
      spendPerDayUsd: policy.limits.spendPerDayUsd ?? this.env.SPEND_PER_DAY_USD,
      spendPerMonthUsd: policy.limits.spendPerMonthUsd ?? this.env.SPEND_PER_MONTH_USD,
      eventStreamsPerKey: policy.limits.eventStreamsPerKey ?? this.env.EVENT_STREAMS_PER_KEY,
    };
  }

  /** Model spend of the tenant this UTC day and this UTC month, from llm_calls (replayed answers cost nothing and have no row). */
  async spend(tenantId: string): Promise<{ day: number; month: number }> {
    const [row] = await this.prisma.$queryRaw<{ day: number | null; month: number | null }[]>`
      SELECT sum(cost_usd) FILTER (WHERE created_at >= date_trunc('day', now(), 'UTC')) AS day, sum(cost_usd) AS month
      FROM llm_calls
      WHERE tenant_id = ${tenantId}::uuid AND created_at >= date_trunc('month', now(), 'UTC')`;
    return { day: Number(row?.day ?? 0), month: Number(row?.month ?? 0) };
  }

  /** Before a run starts (a new run, a replay, a resume): the tenant's spend is below its day's and month's limits. */
  async assertSpendWithin(tenantId: string, policy: TenantPolicy, now = new Date()): Promise<void> {
    const limits = this.of(policy);
    const spent = await this.spend(tenantId);
    if (spent.day >= limits.spendPerDayUsd) {
      const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
      throw new TenantLimitError(
        'spend_per_day',
        `This tenant has spent $${spent.day.toFixed(2)} on models today (UTC), its daily limit of $${limits.spendPerDayUsd}; runs start again tomorrow`,
        secondsUntil(tomorrow, now),
        { max: limits.spendPerDayUsd, current: spent.day },
      );
    }
    if (spent.month >= limits.spendPerMonthUsd) {
      const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      throw new TenantLimitError(
        'spend_per_month',
        `This tenant has spent $${spent.month.toFixed(2)} on models this month (UTC), its monthly limit of $${limits.spendPerMonthUsd}`,
        secondsUntil(nextMonth, now),
        { max: limits.spendPerMonthUsd, current: spent.month },
      );
    }
  }

  /** The figures `/v1/me` shows: each limit and where the tenant (for streams, this key) stands against it. */
  async usage(tenantId: string, keyId: string, policy: TenantPolicy): Promise<MeView['limits']> {
    const limits = this.of(policy);
    const [spent, [runs], streams] = await Promise.all([
      this.spend(tenantId),
      this.prisma.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM research_runs
        WHERE tenant_id = ${tenantId}::uuid AND status IN ('queued', 'running', 'awaiting_approval')`,
      this.streams.held(keyId),
    ]);
    return {
      runsInProgress: { max: limits.runsInProgress, current: Number(runs?.n ?? 0) },
      spendPerDayUsd: { max: limits.spendPerDayUsd, current: spent.day },
      spendPerMonthUsd: { max: limits.spendPerMonthUsd, current: spent.month },
      eventStreamsPerKey: { max: limits.eventStreamsPerKey, current: streams },
    };
  }
}
