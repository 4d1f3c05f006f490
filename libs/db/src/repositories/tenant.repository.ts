import { Injectable } from '@nestjs/common';
import { insertOrFind } from '../insert-or-find';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type TenantRow = Prisma.TenantGetPayload<object>;

@Injectable()
export class TenantRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Creates the tenant, or returns the one of that name (the local CLI uses one named "local"). Atomic: CLI
   * processes started at once on a fresh database all get the same tenant, none a unique violation.
   */
  async ensure(name: string, db: Db = this.prisma): Promise<TenantRow> {
    const { row } = await insertOrFind(
      `tenant "${name}"`,
      () => db.tenant.createManyAndReturn({ data: [{ name }], skipDuplicates: true }),
      () => db.tenant.findUnique({ where: { name } }),
    );
    return row;
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

  /** Creates a tenant with a policy, or returns null when one of that name exists (also one created a moment ago by another caller). */
  async createIfAbsent(name: string, policy: Prisma.InputJsonValue, db: Db = this.prisma): Promise<TenantRow | null> {
    const [row] = await db.tenant.createManyAndReturn({ data: [{ name, policy }], skipDuplicates: true });
    return row ?? null;
  }

  count(db: Db = this.prisma): Promise<number> {
    return db.tenant.count();
  }

  setPolicy(id: string, policy: Prisma.InputJsonValue, db: Db = this.prisma): Promise<TenantRow> {
    return db.tenant.update({ where: { id }, data: { policy } });
  }
}
