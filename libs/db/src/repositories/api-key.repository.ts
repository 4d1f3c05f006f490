import { Injectable } from '@nestjs/common';
import { generateApiKey, parseApiKey, secretMatches } from '../identity/api-key-secret';
import { insertOrFind } from '../insert-or-find';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type ApiKeyRow = Prisma.ApiKeyGetPayload<object>;

/** Who a verified key acts for. */
export interface KeyIdentity {
  keyId: string;
  prefix: string;
  tenantId: string;
  principalId: string;
  principalName: string;
  role: string;
}

/** What a key may do; the key's own role, chosen when it is created (a principal may hold keys of several roles). */
export const KEY_ROLES = ['admin', 'member', 'viewer'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

export function isKeyRole(value: string): value is KeyRole {
  return (KEY_ROLES as readonly string[]).includes(value);
}

/** Don't write last_used_at on every request: once a minute per key is enough to see whether it is used. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Creates a key for a principal (created on first use) with the role asked for: the key's role, whatever role
   * the principal was created with (a viewer key for an existing member principal is a viewer key). The returned
   * `key` is the only copy of the secret.
   */
  async create(
    tenantId: string,
    principalName: string,
    role: KeyRole = 'member',
    db: Db = this.prisma,
  ): Promise<{ key: string; row: ApiKeyRow }> {
    // The type does not reach plain-JS callers or a CLI flag: a role outside the set would be a CHECK violation.
    if (!isKeyRole(role)) throw new RangeError(`A key's role is admin, member or viewer, not "${String(role)}"`);
    // Atomic: two keys created at once for a new principal share it (a read-then-insert gave one of them P2002).
    const { row: principal } = await insertOrFind(
      `principal "${principalName}"`,
      () => db.principal.createManyAndReturn({ data: [{ tenantId, name: principalName, kind: 'service', role }], skipDuplicates: true }),
      () => db.principal.findUnique({ where: { tenantId_name: { tenantId, name: principalName } } }),
    );
    const generated = generateApiKey();
    const row = await db.apiKey.create({
      data: { tenantId, principalId: principal.id, prefix: generated.prefix, secretHash: generated.secretHash, role },
    });
    return { key: generated.key, row };
  }

  /**
   * Revokes by prefix (or whole key). Returns the row, or null when no such key exists. Revoking twice keeps
   * the first time, also when two revocations run at once: the update applies only to a key not yet revoked.
   */
  async revoke(prefixOrKey: string, db: Db = this.prisma): Promise<ApiKeyRow | null> {
    const prefix = parseApiKey(prefixOrKey)?.prefix ?? prefixOrKey.replace(/^dsk_/, '');
    await db.apiKey.updateMany({ where: { prefix, revokedAt: null }, data: { revokedAt: new Date() } });
    return db.apiKey.findUnique({ where: { prefix } });
  }

  /**
   * The identity behind a presented key, or null when it is malformed, unknown, wrong or revoked. Read
   * from Postgres on every request (no cache), so a revocation takes effect at once.
   */
  async verify(presented: string, now = new Date()): Promise<KeyIdentity | null> {
    const parsed = parseApiKey(presented);
    if (!parsed) return null;
    const row = await this.prisma.apiKey.findUnique({ where: { prefix: parsed.prefix }, include: { principal: true } });
    if (!row || row.revokedAt || !secretMatches(parsed.secret, row.secretHash)) return null;
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
    }
    return {
      keyId: row.id,
      prefix: row.prefix,
      tenantId: row.tenantId,
      principalId: row.principalId,
      principalName: row.principal.name,
      // The key's role, never its principal's: a read-only key stays read-only whoever holds it.
      role: row.role,
    };
  }

  /** The keys of one principal of a tenant that still work, oldest first. */
  activeOf(tenantId: string, principalName: string, db: Db = this.prisma): Promise<ApiKeyRow[]> {
    return db.apiKey.findMany({ where: { tenantId, revokedAt: null, principal: { name: principalName } }, orderBy: { createdAt: 'asc' } });
  }

  list(tenantId: string, db: Db = this.prisma): Promise<ApiKeyRow[]> {
    return db.apiKey.findMany({ where: { tenantId }, orderBy: { createdAt: 'asc' } });
  }
}
