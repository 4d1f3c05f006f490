import { Injectable } from '@nestjs/common';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type TenantRow = Prisma.TenantGetPayload<object>;

@Injectable()
export class TenantRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Creates the tenant, or returns the one of that name (the local CLI uses one named "local"). */
  ensure(name: string, db: Db = this.prisma): Promise<TenantRow> {
    return db.tenant.upsert({ where: { name }, create: { name }, update: {} });
  }

  find(id: string, db: Db = this.prisma): Promise<TenantRow | null> {
    return db.tenant.findUnique({ where: { id } });
  }
}
