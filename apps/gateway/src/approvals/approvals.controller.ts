import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { ApprovalDecision, RunIdParams, type ApprovalView } from '@dossier/contracts';
import { GateNotOpenError } from '@dossier/errors';
import { RunCommands, RunQueries } from '@dossier/runs';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { NotFoundError } from '../common/http-errors';
import { parse } from '../common/parse';

export const ApprovalIdParams = z.strictObject({ id: z.uuid() });

/** Gates over the engine's use cases (RunQueries, RunCommands), as the CLI's local transport: one tenant scope, one view. */
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class ApprovalsController {
  constructor(
    private readonly queries: RunQueries,
    private readonly commands: RunCommands,
  ) {}

  @Get('runs/:id/approvals')
  async list(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<{ items: ApprovalView[] }> {
    const { id } = parse(RunIdParams, params, 'path');
    return { items: await this.queries.approvals(caller.tenantId, id) };
  }

  /** Approve or reject (with feedback) one gate revision; only while it is open (else 409). */
  @Post('approvals/:id')
  @HttpCode(200)
  async decide(@CurrentCaller() caller: Caller, @Param() params: unknown, @Body() rawBody: unknown): Promise<ApprovalView> {
    const { id } = parse(ApprovalIdParams, params, 'path');
    const decision = parse(ApprovalDecision, rawBody, 'body');
    const approval = await this.find(caller.tenantId, id);
    if (approval.status !== 'open') {
      throw new GateNotOpenError(`Approval ${id} (gate ${approval.gate}, revision ${approval.revision}) is already ${approval.status}`, {
        runId: approval.runId,
        details: { status: approval.status },
      });
    }
    await this.commands.decideGate(caller.tenantId, approval.runId, approval.gate, decision, caller.actor);
    return this.find(caller.tenantId, id);
  }

  private async find(tenantId: string, id: string): Promise<ApprovalView> {
    const approval = await this.queries.approval(tenantId, id);
    if (!approval) throw new NotFoundError(`Approval ${id} not found`, { details: { approvalId: id } });
    return approval;
  }
}
