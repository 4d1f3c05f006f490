import { Injectable } from '@nestjs/common';
import type { Db, Prisma } from '../prisma.service';

@Injectable()
export class CheckpointRepository {
  insert(tx: Db, data: { tenantId: string; runId: string; stepKey: string; state: Prisma.InputJsonValue }): Promise<unknown> {
    return tx.workflowCheckpoint.create({ data });
  }
}
