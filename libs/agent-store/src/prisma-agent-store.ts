import { Injectable } from '@nestjs/common';
import type {
  AgentStore,
  AnsweredQuery,
  LlmCallRecord,
  PendingCall,
  RunSettings,
  RunSpend,
  SettledCall,
  Spend,
  SpendDecision,
} from '@dossier/agents';
import {
  answeredCalls,
  insertLlmCall,
  PrismaService,
  reserveLlmCall,
  reserveUnderRunLock,
  runBudgetSettings,
  settleLlmCall,
} from '@dossier/db';

/**
 * The agents' persistence ports over Postgres: calls and reservations are llm_calls rows, a run's settings come
 * from research_runs, and reservations of one run are serialised across processes by a transaction-scoped
 * advisory lock (`reserveUnderRunLock`). Budget rules are not here: the ledger passes them in as `decide`.
 */
@Injectable()
export class PrismaAgentStore implements AgentStore {
  constructor(private readonly prisma: PrismaService) {}

  async record(call: LlmCallRecord): Promise<void> {
    await insertLlmCall(this.prisma, call);
  }

  answered(q: AnsweredQuery): Promise<{ id: string; answer: unknown }[]> {
    return answeredCalls(this.prisma, q);
  }

  runSettings(tenantId: string, runId: string): Promise<RunSettings | null> {
    return runBudgetSettings(this.prisma, tenantId, runId);
  }

  async reserve(pending: PendingCall): Promise<{ id: string }> {
    return reserveLlmCall(this.prisma, reservation(pending));
  }

  reserveChecked(
    pending: PendingCall,
    staleBefore: Date,
    decide: (spend: RunSpend) => SpendDecision,
  ): Promise<{ id: string } | Exclude<SpendDecision, 'reserve'>> {
    return reserveUnderRunLock(this.prisma, { ...pending, requestHash: pending.requestHash ?? null }, staleBefore, (rows) => {
      // The read groups by side: at most one row for settled calls and one for reservations in flight.
      const side = (inFlight: boolean): Spend => {
        const row = rows.find((r) => r.inFlight === inFlight);
        return { tokens: row?.tokens ?? 0, costUsd: row?.costUsd ?? 0 };
      };
      return decide({ spent: side(false), inFlight: side(true), anyInFlight: rows.some((r) => r.inFlight) });
    });
  }

  async settle(tenantId: string, id: string, settled: SettledCall): Promise<void> {
    await settleLlmCall(this.prisma, tenantId, id, settled);
  }
}

function reservation(pending: PendingCall) {
  return { ...pending, tokensOut: 0, latencyMs: 0, outcome: 'pending', error: null };
}
