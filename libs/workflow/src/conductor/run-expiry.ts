import { Injectable } from '@nestjs/common';
import { TERMINAL_RUN_STATUSES, type GateName, type RunStatus } from '@dossier/contracts';
import { ApprovalRepository, PrismaService, RecordingRepository, RunEventRepository, RunRepository } from '@dossier/db';
import { AuditLog } from '../audit/audit-log';
import { BudgetMarks } from '../runner/budget-marks';

/** What the conductor ends on time: gates nobody decided, runs past their wall-time budget, recordings past retention. */
@Injectable()
export class RunExpiry {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly events: RunEventRepository,
    private readonly approvals: ApprovalRepository,
    private readonly recordings: RecordingRepository,
    private readonly audit: AuditLog,
    private readonly budgets: BudgetMarks,
  ) {}

  /** Deletes recorded calls past their retention and the answers no call names any more. */
  purgeExpiredRecordings(now = new Date()): Promise<{ calls: number; answers: number }> {
    return this.recordings.purgeExpired(this.prisma, now);
  }

  /** An open gate nobody decided in time cancels its run, with the reason recorded. */
  async expireGates(now = new Date()): Promise<number> {
    let expired = 0;
    for (const approval of await this.approvals.expired(now)) {
      await this.prisma.$transaction(async (tx) => {
        const run = await this.runs.lock(tx, approval.tenantId, approval.runId);
        if (!run || !(await this.approvals.findOpen(tx, approval.tenantId, approval.runId, approval.gate as GateName))) return;
        await this.approvals.decide(tx, approval.id, 'expired', null, 'conductor');
        const reason = `gate ${approval.gate} expired without a decision`;
        if (!TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
          await this.runs.update(tx, run.tenantId, run.id, { status: 'cancelled', failureReason: reason });
        }
        await this.events.append(tx, run.tenantId, run.id, [
          { type: 'gate_decided', gate: approval.gate as GateName, revision: approval.revision, decision: 'expired' },
          { type: 'run_cancelled', reason },
        ]);
        await this.audit.appendLocked(tx, run.tenantId, run.id, 'gate_expired', 'conductor', {
          gate: approval.gate,
          revision: approval.revision,
        });
        expired++;
      });
    }
    return expired;
  }

  /** A run past its wall-time budget is marked; the router ends research at the next loop boundary. */
  async expireDeadlines(now = new Date()): Promise<number> {
    let marked = 0;
    for (const run of await this.runs.pastDeadline(now)) {
      if (await this.budgets.markBudgetExhausted(run.tenantId, run.id, 'wall_time', 'conductor')) marked++;
    }
    return marked;
  }
}
