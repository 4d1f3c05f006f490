import { defaultQueuePrefix } from '../src';

describe('defaultQueuePrefix (QUEUE_PREFIX unset)', () => {
  it('is one prefix per database: host, port and name decide it, credentials and options do not', () => {
    const a = defaultQueuePrefix('postgresql://postgres@127.0.0.1:5432/dossier');
    expect(a).toMatch(/^dossier-dossier-[0-9a-f]{8}$/);
    expect(defaultQueuePrefix('postgresql://alice:secret@127.0.0.1/dossier?sslmode=disable')).toBe(a);
    expect(defaultQueuePrefix('postgres://postgres@127.0.0.1:5432/dossier_other')).not.toBe(a);
    expect(defaultQueuePrefix('postgresql://postgres@127.0.0.1:5433/dossier')).not.toBe(a);
    expect(defaultQueuePrefix('postgresql://postgres@db.example:5432/dossier')).not.toBe(a);
  });

  it('is a valid QUEUE_PREFIX whatever the database is called, and never carries the password', () => {
    const prefix = defaultQueuePrefix('postgresql://bob:hunter2@db:5432/my%20db%3Aprod');
    expect(prefix).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(prefix).not.toContain('hunter2');
    // No database in the URL: Postgres connects to the user's own.
    expect(defaultQueuePrefix('postgresql://bob@db')).toBe(defaultQueuePrefix('postgresql://bob@db:5432/bob'));
  });
});
