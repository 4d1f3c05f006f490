import { Injectable } from '@nestjs/common';
import { RunStatus, type RunProgress, type RunUsage, type RunView } from '@dossier/contracts';
import { redactSecrets } from '@dossier/errors';
import { PrismaService } from '../prisma.service';
import type { RunRow } from '../repositories/run.repository';
import { verificationFigures } from './verification-figures';

const NO_USAGE: RunUsage = { llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 };

/**
 * The one read model of a run as clients see it (`RunView`: the gateway's JSON, the CLI, the web app): the run's
 * own columns, its model use (one grouped query per page) and, for a single run, its live progress.
 */
@Injectable()
export class RunViews {
  constructor(private readonly prisma: PrismaService) {}

  async page(tenantId: string, rows: RunRow[]): Promise<RunView[]> {
    const usage = await this.usage(
      tenantId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...runColumns(r), usage: usage.get(r.id) ?? NO_USAGE }));
  }

  async one(row: RunRow): Promise<RunView> {
    const [usage, progress] = await Promise.all([this.usage(row.tenantId, [row.id]), this.progress(row.tenantId, row.id)]);
    return { ...runColumns(row), usage: usage.get(row.id) ?? NO_USAGE, progress };
  }

  private async usage(tenantId: string, runIds: string[]): Promise<Map<string, RunUsage>> {
    if (runIds.length === 0) return new Map();
    const groups = await this.prisma.llmCall.groupBy({
      by: ['runId'],
      // Model requests only: the offline engine's plays send nothing and their "tokens" are word counts (decision 0040).
      where: { tenantId, runId: { in: runIds }, engine: { not: 'offline' } },
      _count: { _all: true },
      _sum: { tokensIn: true, tokensOut: true, costUsd: true },
    });
    return new Map(
      groups.map((g) => [
        g.runId,
        {
          llmCalls: g._count._all,
          tokensIn: g._sum.tokensIn ?? 0,
          tokensOut: g._sum.tokensOut ?? 0,
          // Sums of float costs drift in the last digits; a micro-dollar is far below any price.
          costUsd: Math.round((g._sum.costUsd ?? 0) * 1e6) / 1e6,
        },
      ]),
    );
  }

  private async progress(tenantId: string, runId: string): Promise<RunProgress> {
    const where = { tenantId, runId };
    const [steps, sources, evidence, claims, contradictions, figures] = await Promise.all([
      this.prisma.nodeExecution.groupBy({ by: ['status'], where, _count: true }),
      this.prisma.sourceRecord.count({ where: { ...where, selected: true, excludedBy: null } }),
      this.prisma.evidenceFragment.count({ where }),
      this.prisma.claim.count({ where }),
      this.prisma.contradiction.count({ where }),
      // The report's own figures once it is written (decision 0086).
      verificationFigures(this.prisma, tenantId, runId),
    ]);
    const { checked, sentences, supported, rounds } = figures;
    return {
      steps: Object.fromEntries(steps.map((s) => [s.status, s._count])),
      sources,
      evidence,
      claims,
      contradictions,
      verification: { checked, sentences, supported, rounds },
    };
  }
}

/** A run's own columns as clients see them; `usage` and `progress` come from other tables. */
function runColumns(row: RunRow): Omit<RunView, 'usage' | 'progress'> {
  return {
    id: row.id,
    question: row.question,
    status: RunStatus.parse(row.status),
    options: row.options as Record<string, unknown>,
    currentNode: row.currentNode,
    awaitingGate: row.awaitingGate,
    budgetExhausted: row.budgetExhausted,
    stopReason: row.stopReason,
    // Redacted again on the way out: rows written before secrets were redacted at the source may still hold one.
    failureReason: row.failureReason === null ? null : redactSecrets(row.failureReason),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}
