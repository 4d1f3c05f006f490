import { Injectable } from '@nestjs/common';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type AuditRow = Prisma.AuditEventGetPayload<object>;

@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  last(tx: Db, tenantId: string, runId: string): Promise<AuditRow | null> {
    return tx.auditEvent.findFirst({ where: { tenantId, runId }, orderBy: { seq: 'desc' } });
  }

  /** Whether the run's audit log has an event of `kind` (a `run_imported` run cannot be resumed). */
  async has(tx: Db, tenantId: string, runId: string, kind: string): Promise<boolean> {
    return (await tx.auditEvent.findFirst({ where: { tenantId, runId, kind }, select: { seq: true } })) !== null;
  }

  insert(tx: Db, row: AuditRow): Promise<unknown> {
    return tx.auditEvent.create({ data: row });
  }

  list(tenantId: string, runId: string, db: Db = this.prisma): Promise<AuditRow[]> {
    return db.auditEvent.findMany({ where: { tenantId, runId }, orderBy: { seq: 'asc' } });
  }
}
