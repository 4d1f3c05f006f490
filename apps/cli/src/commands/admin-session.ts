import type { AdminRepositories } from './admin-repositories';
import { environment } from '@dossier/config';

/** The database the admin commands work on: DATABASE_URL, or the local server's `dossier` database. */
export function adminDatabaseUrl(): string {
  return environment()['DATABASE_URL'] || 'postgresql://postgres@127.0.0.1:5432/dossier';
}

/** Tenants and keys live in the database at DATABASE_URL: the operator's tool, never exposed over HTTP. */
export async function withRepositories<T>(fn: (r: AdminRepositories) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: the Prisma client is heavy and only admin commands need it in this form.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { openAdminRepositories } = require('./admin-repositories') as typeof import('./admin-repositories');
  const repositories = openAdminRepositories(adminDatabaseUrl());
  try {
    return await fn(repositories);
  } finally {
    await repositories.close();
  }
}
