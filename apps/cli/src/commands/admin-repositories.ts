import { ApiKeyRepository, PrismaService, TenantRepository } from '@dossier/db';

/** Tenants and keys straight in the database (the operator's tool; the gateway has no admin API). */
export interface AdminRepositories {
  tenants: TenantRepository;
  keys: ApiKeyRepository;
  close(): Promise<void>;
}

export function openAdminRepositories(databaseUrl: string): AdminRepositories {
  const prisma = new PrismaService({ url: databaseUrl, poolMax: 2 });
  return { tenants: new TenantRepository(prisma), keys: new ApiKeyRepository(prisma), close: () => prisma.$disconnect() };
}
