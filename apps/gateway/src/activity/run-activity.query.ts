import { Injectable } from '@nestjs/common';
import type { RunActivityView } from '@dossier/contracts';
import { PrismaService, runActivity } from '@dossier/db';

/** The read behind GET /v1/runs/{id}/activity (libs/db's runActivity view): tenant-scoped, one query per table. */
@Injectable()
export class RunActivityQuery {
  constructor(private readonly prisma: PrismaService) {}

  of(tenantId: string, runId: string): Promise<RunActivityView> {
    return runActivity(this.prisma, tenantId, runId);
  }
}
