// Lint fixture (decision 0093): libs/db is where Prisma models are called; tools/lint/test asserts no error here.
import type { Db } from '../src/prisma.service';

export const claims = (db: Db) => db.claim.findMany({ where: { runId: 'r' } });
