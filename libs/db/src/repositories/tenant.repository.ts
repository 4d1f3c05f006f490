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

  findByName(name: string, db: Db = this.prisma): Promise<TenantRow | null> {
    return db.tenant.findUnique({ where: { name } });
  }

  /** Creates a tenant with a policy; a tenant of that name already existing is a unique-constraint error (P2002). */
  create(name: string, policy: Prisma.InputJsonValue, db: Db = this.prisma): Promise<TenantRow> {
    return db.tenant.create({ data: { name, policy } });
  }

  setPolicy(id: string, policy: Prisma.InputJsonValue, db: Db = this.prisma): Promise<TenantRow> {
    return db.tenant.update({ where: { id }, data: { policy } });
  }
}
