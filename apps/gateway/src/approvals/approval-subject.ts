import { Injectable } from '@nestjs/common';
import type { GateName } from '@dossier/contracts';
import { PrismaService, publishPreview, ResearchRepository, type ApprovalRow } from '@dossier/db';

/** What a person looks at before deciding a gate: the plan (perspectives, questions), the outline, or the framed report. */
@Injectable()
export class ApprovalSubject {
  constructor(
    private readonly research: ResearchRepository,
    private readonly prisma: PrismaService,
  ) {}

  async of(approval: ApprovalRow): Promise<unknown> {
    const gate = approval.gate as GateName;
    switch (gate) {
      case 'plan': {
        const [perspectives, questions] = await Promise.all([
          this.research.perspectives(approval.tenantId, approval.runId, approval.revision),
          this.research.questions(approval.tenantId, approval.runId),
        ]);
        return {
          perspectives: perspectives.map((p) => ({ name: p.name, role: p.role, affiliation: p.affiliation, focus: p.focus })),
          questions: questions.map((q) => ({ id: q.id, text: q.text, priority: q.priority, iteration: q.iteration })),
        };
      }
      case 'outline':
        return {
          sections: (await this.research.latestOutline(approval.tenantId, approval.runId)).map((s) => ({
            position: s.position,
            title: s.title,
            purpose: s.purpose,
            claimIds: s.claimIds,
          })),
        };
      case 'publish':
        // The finished report in brief, with what verification checked, repaired and removed.
        return publishPreview(this.prisma, this.research, approval.tenantId, approval.runId);
    }
  }
}
