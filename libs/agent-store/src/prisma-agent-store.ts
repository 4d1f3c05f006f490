import { Injectable } from '@nestjs/common';
import type {
  AgentStore,
  AnsweredQuery,
  LlmCallRecord,
  PendingCall,
  RunSettings,
  RunSpend,
  SettledCall,
  SpendDecision,
} from '@dossier/agents';
import { PrismaService } from '@dossier/db';

/**
 * The agents' persistence ports over Postgres: calls and reservations are llm_calls rows, a run's settings come
 * from research_runs, and reservations of one run are serialised across processes by a transaction-scoped
 * advisory lock. Budget rules are not here: the ledger passes them in as `decide`.
 */
@Injectable()
export class PrismaAgentStore implements AgentStore {
  constructor(private readonly prisma: PrismaService) {}

  async record(call: LlmCallRecord): Promise<void> {
    await this.prisma.llmCall.create({ data: call });
  }

  answered(q: AnsweredQuery): Promise<{ id: string; answer: unknown }[]> {
    return this.prisma.llmCall.findMany({
      where: { tenantId: q.tenantId, runId: q.runId, stepKey: q.stepKey, requestHash: q.requestHash, outcome: { in: [...q.outcomes] } },
      orderBy: { createdAt: 'asc' },
      select: { id: true, answer: true },
      take: q.limit,
    });
  }

  runSettings(tenantId: string, runId: string): Promise<RunSettings | null> {
    return this.prisma.researchRun.findFirst({ where: { id: runId, tenantId }, select: { options: true, budgetExhausted: true } });
  }

  async reserve(pending: PendingCall): Promise<{ id: string }> {
    return this.prisma.llmCall.create({ data: reservation(pending), select: { id: true } });
  }

  reserveChecked(
    pending: PendingCall,
    staleBefore: Date,
    decide: (spend: RunSpend) => SpendDecision,
  ): Promise<{ id: string } | Exclude<SpendDecision, 'reserve'>> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext('dossier.budget'), hashtext(${pending.runId}))::text AS locked`;
      const rows = await tx.llmCall.groupBy({
        by: ['outcome'],
        where: {
          tenantId: pending.tenantId,
          runId: pending.runId,
          engine: { not: 'offline' },
          NOT: { outcome: 'pending', createdAt: { lt: staleBefore } },
        },
        _sum: { tokensIn: true, tokensOut: true, costUsd: true },
      });
      const sum = (inFlight: boolean) =>
        rows
          .filter((r) => (r.outcome === 'pending') === inFlight)
          .reduce(
            (acc, r) => ({
              tokens: acc.tokens + (r._sum.tokensIn ?? 0) + (r._sum.tokensOut ?? 0),
              costUsd: acc.costUsd + (r._sum.costUsd ?? 0),
            }),
            { tokens: 0, costUsd: 0 },
          );
      const decided = decide({ spent: sum(false), inFlight: sum(true), anyInFlight: rows.some((r) => r.outcome === 'pending') });
      if (decided !== 'reserve') return decided;
      return tx.llmCall.create({ data: reservation(pending), select: { id: true } });
    });
  }

  async settle(tenantId: string, id: string, settled: SettledCall): Promise<void> {
    await this.prisma.llmCall.updateMany({ where: { id, tenantId }, data: settled });
  }
}

function reservation(pending: PendingCall) {
  return { ...pending, tokensOut: 0, latencyMs: 0, outcome: 'pending', error: null };
}
