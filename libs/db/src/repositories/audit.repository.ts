import { Injectable } from '@nestjs/common';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type AuditRow = Prisma.AuditEventGetPayload<object>;

@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  last(tx: Db, tenantId: string, runId: string): Promise<AuditRow | null> {
    return tx.auditEvent.findFirst({ where: { tenantId, runId }, orderBy: { seq: 'desc' } });
  }

  insert(tx: Db, row: AuditRow): Promise<unknown> {
    return tx.auditEvent.create({ data: row });
  }

  list(tenantId: string, runId: string, db: Db = this.prisma): Promise<AuditRow[]> {
    return db.auditEvent.findMany({ where: { tenantId, runId }, orderBy: { seq: 'asc' } });
  }
}
