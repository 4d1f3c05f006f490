import { Injectable } from '@nestjs/common';
import type { BudgetKind } from '@dossier/contracts';
import { PrismaService, RunEventRepository, RunRepository } from '@dossier/db';
import { AuditLog } from '../audit/audit-log';

/**
 * A run's budget ran out (wall time from the conductor; tokens or cost from the agents, whose budget sink this is):
 * marked once, with an event and an audit row; the router ends research at the next loop boundary.
 */
@Injectable()
export class BudgetMarks {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly events: RunEventRepository,
    private readonly audit: AuditLog,
  ) {}

  /** False if the run is gone or its budget was already marked. */
  async markBudgetExhausted(tenantId: string, runId: string, budget: BudgetKind, actor: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await this.runs.lock(tx, tenantId, runId);
      if (!locked || locked.budgetExhausted) return false;
      await this.runs.update(tx, tenantId, runId, { budgetExhausted: budget });
      await this.events.append(tx, tenantId, runId, [{ type: 'budget_exhausted', budget }]);
      await this.audit.appendLocked(tx, tenantId, runId, 'budget_exhausted', actor, { budget });
      return true;
    });
  }
}
