import type { RunRow } from '@dossier/db';
import { ValidationError } from '@dossier/errors';

/** Keyset cursor over (created_at, id), opaque to clients. */
export function encodeCursor(row: RunRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, 'utf8').toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !UUID.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new ValidationError('Invalid cursor: pass the nextCursor of the previous page unchanged', {
      details: { part: 'query', issues: [{ path: 'cursor', message: 'invalid cursor' }] },
    });
  }
  return { createdAt, id };
}
