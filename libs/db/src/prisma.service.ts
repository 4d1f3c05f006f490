import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/prisma/client';

export { Prisma };

/** The client or an interactive transaction: repository methods accept either. */
export type Db = PrismaClient | Prisma.TransactionClient;

export interface DbOptions {
  url: string;
  poolMax?: number;
}

export function createPrismaClient(options: DbOptions): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: options.url, max: options.poolMax ?? 10 }) });
}

/**
 * The one Prisma client of a process. It does not connect eagerly: the first query connects, and a
 * database that is down fails that query with a classified (retryable) error instead of a half-booted app.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(options: DbOptions) {
    super({ adapter: new PrismaPg({ connectionString: options.url, max: options.poolMax ?? 10 }) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
