import { Injectable } from '@nestjs/common';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

@Injectable()
export class CheckpointRepository {
  constructor(private readonly prisma: PrismaService) {}

  insert(tx: Db, data: { tenantId: string; runId: string; stepKey: string; state: Prisma.InputJsonValue }): Promise<unknown> {
    return tx.workflowCheckpoint.create({ data });
  }

  list(tenantId: string, runId: string, db: Db = this.prisma): Promise<Prisma.WorkflowCheckpointGetPayload<object>[]> {
    return db.workflowCheckpoint.findMany({ where: { tenantId, runId }, orderBy: { id: 'asc' } });
  }
}
