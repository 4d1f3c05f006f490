// Lint fixture (decision 0093): breaks "Prisma models are called only in libs/db"; tools/lint/test asserts the errors.
import type { Db } from '@dossier/db';

export const claims = (db: Db) => db.claim.findMany({ where: { runId: 'r' } });
export const drop = (tx: Db) => tx.outlineSection.deleteMany({ where: { runId: 'r' } });
// Not a model call: a DOM document, and raw SQL.
export const link = () => document.createElement('a');
export const one = (db: Db) => db.$queryRaw`SELECT 1`;
