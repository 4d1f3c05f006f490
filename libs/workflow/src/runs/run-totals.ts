import { Injectable } from '@nestjs/common';
import type { RunProgress, RunUsage, RunView } from '@dossier/contracts';
import { PrismaService, type RunRow } from '@dossier/db';
import { runView } from './run-views';

const NO_USAGE: RunUsage = { llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 };

/** Run views with their model use (one grouped query per page) and, for a single run, its live counters. */
@Injectable()
export class RunTotals {
  constructor(private readonly prisma: PrismaService) {}

  async page(tenantId: string, rows: RunRow[]): Promise<RunView[]> {
    const usage = await this.usage(
      tenantId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...runView(r), usage: usage.get(r.id) ?? NO_USAGE }));
  }

  async one(row: RunRow): Promise<RunView> {
    const [usage, progress] = await Promise.all([this.usage(row.tenantId, [row.id]), this.progress(row.tenantId, row.id)]);
    return { ...runView(row), usage: usage.get(row.id) ?? NO_USAGE, progress };
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
    const [sources, evidence, claims, contradictions, last] = await Promise.all([
      this.prisma.sourceRecord.count({ where: { ...where, selected: true, excludedBy: null } }),
      this.prisma.evidenceFragment.count({ where }),
      this.prisma.claim.count({ where }),
      this.prisma.contradiction.count({ where }),
      this.prisma.verificationFinding.findFirst({ where, orderBy: { round: 'desc' }, select: { round: true } }),
    ]);
    const verdicts = last
      ? await this.prisma.verificationFinding.groupBy({ by: ['verdict'], where: { ...where, round: last.round }, _count: { _all: true } })
      : [];
    const checked = verdicts.reduce((n, v) => n + v._count._all, 0);
    const supported = verdicts.find((v) => v.verdict === 'supported')?._count._all ?? 0;
    return { sources, evidence, claims, contradictions, verification: { checked, supported, rounds: last?.round ?? 0 } };
  }
}
