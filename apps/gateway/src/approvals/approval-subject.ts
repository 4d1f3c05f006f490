import { Injectable } from '@nestjs/common';
import type { ApprovalView, GateName } from '@dossier/contracts';
import { PrismaService, publishPreview, ResearchRepository, type ApprovalRow } from '@dossier/db';
import { GateEdits } from '@dossier/workflow';

/**
 * What a person looks at before deciding a gate: the plan (analysts, questions) or the outline, in the same contract
 * (PlanSubject, OutlineSubject) that an approval with edits sends back, or the framed report in brief (publish).
 */
@Injectable()
export class ApprovalSubject {
  constructor(
    private readonly edits: GateEdits,
    private readonly research: ResearchRepository,
    private readonly prisma: PrismaService,
  ) {}

  async of(approval: ApprovalRow): Promise<ApprovalView['subject']> {
    const gate = approval.gate as GateName;
    switch (gate) {
      case 'plan':
        return this.edits.planSubject(approval.tenantId, approval.runId, approval.revision);
      case 'outline':
        return this.edits.outlineSubject(approval.tenantId, approval.runId);
      case 'publish':
        // The finished report in brief, with what verification checked, repaired and removed.
        return publishPreview(this.prisma, this.research, approval.tenantId, approval.runId);
    }
  }
}
