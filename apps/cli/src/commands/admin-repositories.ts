import { ApiKeyRepository, PrismaService, TenantRepository, type Db } from '@dossier/db';

/** Tenants and keys straight in the database (the operator's tool; the gateway has no admin API). */
export interface AdminRepositories {
  tenants: TenantRepository;
  keys: ApiKeyRepository;
  /** Runs `fn` in one transaction: what it writes lands together or not at all. */
  transaction<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function openAdminRepositories(databaseUrl: string): AdminRepositories {
  const prisma = new PrismaService({ url: databaseUrl, poolMax: 2 });
  return {
    tenants: new TenantRepository(prisma),
    keys: new ApiKeyRepository(prisma),
    // Prisma's default 5 s would end a transaction that waited on another's lock on a busy machine.
    transaction: (fn) => prisma.$transaction((tx) => fn(tx), { maxWait: 30_000, timeout: 60_000 }),
    close: () => prisma.$disconnect(),
  };
}
