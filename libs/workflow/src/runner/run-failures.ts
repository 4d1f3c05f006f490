import { Injectable } from '@nestjs/common';
import { TERMINAL_RUN_STATUSES, type NodeName, type RunStatus } from '@dossier/contracts';
import { ExecutionRepository, PrismaService, RunEventRepository, RunRepository } from '@dossier/db';
import { AuditLog } from '../audit/audit-log';

export interface FailureReport {
  node?: NodeName;
  stepKey?: string;
  code: string;
  message: string;
}

/** Marks a run failed with a clear reason (a step that cannot succeed, or ran out of attempts). */
@Injectable()
export class RunFailures {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly executions: ExecutionRepository,
    private readonly events: RunEventRepository,
    private readonly audit: AuditLog,
  ) {}

  async fail(tenantId: string, runId: string, report: FailureReport): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const run = await this.runs.lock(tx, tenantId, runId);
      if (!run) return false;
      const reason = report.node ? `${report.node}: ${report.message}` : report.message;
      if (report.stepKey) await this.executions.fail(tx, tenantId, report.stepKey, reason);
      if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) return false;
      await this.runs.update(tx, tenantId, runId, { status: 'failed', failureReason: reason });
      await this.events.append(tx, tenantId, runId, [
        { type: 'run_failed', ...(report.node ? { node: report.node } : {}), error: report.message, code: report.code },
      ]);
      await this.audit.appendLocked(tx, tenantId, runId, 'run_failed', 'system', { reason, code: report.code });
      return true;
    });
  }
}
