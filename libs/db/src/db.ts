import type { Prisma, PrismaClient } from './generated/prisma/client';

/** The client or an interactive transaction: repository methods accept either. Its own file so the SQL helpers can
 * name it without importing the Nest service that registers them (an import cycle madge refuses). */
export type Db = PrismaClient | Prisma.TransactionClient;
