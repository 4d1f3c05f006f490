import { Injectable } from '@nestjs/common';
import { TERMINAL_RUN_STATUSES, type NodeName, type RunStatus } from '@dossier/contracts';
import { ExecutionRepository, PrismaService, RunEventRepository, RunRepository } from '@dossier/db';
import { redactSecrets } from '@dossier/errors';
import { AuditLog } from '../audit/audit-log';

export interface FailureReport {
  node?: NodeName;
  /** The failed step and its attempt (the lease's generation): its record is marked failed if that attempt is current. */
  step?: { key: string; attempt: number };
  /** What the tenant reads (run, event, audit log): a reason code and a message written for them (`publicError`). */
  code: string;
  message: string;
  /** The internal description (`describeError`) for the step's record, which only operators read; default: the message. */
  internal?: string;
}

/** The tenant-visible failure reason of a run: the node, a clean message and its reason code. */
export function failureReason(report: Pick<FailureReport, 'node' | 'code' | 'message'>): string {
  const text = `${report.message} (${report.code})`;
  return report.node ? `${report.node}: ${text}` : text;
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
    // Callers pass described errors, which are redacted already; this is the last gate before the tenant can read it.
    const code = redactSecrets(report.code);
    const message = redactSecrets(report.message);
    const reason = failureReason({ ...(report.node ? { node: report.node } : {}), code, message });
    return this.prisma.$transaction(async (tx) => {
      const run = await this.runs.lock(tx, tenantId, runId);
      if (!run) return false;
      if (report.step)
        await this.executions.fail(tx, tenantId, report.step.key, report.step.attempt, redactSecrets(report.internal ?? reason));
      if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) return false;
      await this.runs.update(tx, tenantId, runId, { status: 'failed', failureReason: reason });
      await this.events.append(tx, tenantId, runId, [
        { type: 'run_failed', ...(report.node ? { node: report.node } : {}), error: message, code },
      ]);
      await this.audit.appendLocked(tx, tenantId, runId, 'run_failed', 'system', { reason, code });
      return true;
    });
  }
}
