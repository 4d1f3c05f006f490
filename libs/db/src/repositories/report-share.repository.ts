import { Injectable } from '@nestjs/common';
import { secretMatches } from '../identity/api-key-secret';
import { generateShareToken, parseShareToken } from '../identity/share-token';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type ReportShareRow = Prisma.ReportShareGetPayload<object>;

/** What a presented share token turned out to be. */
export type ShareCheck =
  | { status: 'valid'; share: ReportShareRow }
  | { status: 'revoked' | 'expired'; share: ReportShareRow }
  /** Malformed, unknown, or the secret does not match: the holder proved nothing, so nothing more is said. */
  | { status: 'invalid' };

/** Read-only links to one run's report (docs/decisions/0051). Every query but `check` is scoped to a tenant. */
@Injectable()
export class ReportShareRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** A new link; the returned `token` is the only copy of its secret. */
  async create(
    input: { tenantId: string; runId: string; createdBy: string; expiresAt: Date },
    db: Db = this.prisma,
  ): Promise<{ token: string; row: ReportShareRow }> {
    const generated = generateShareToken();
    const row = await db.reportShare.create({
      data: { ...input, prefix: generated.prefix, secretHash: generated.secretHash },
    });
    return { token: generated.token, row };
  }

  /** The run's links, newest first (revoked and expired ones too: the owner sees what was handed out). */
  list(tenantId: string, runId: string, db: Db = this.prisma): Promise<ReportShareRow[]> {
    return db.reportShare.findMany({ where: { tenantId, runId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
  }

  find(tenantId: string, runId: string, shareId: string, db: Db = this.prisma): Promise<ReportShareRow | null> {
    return db.reportShare.findFirst({ where: { id: shareId, tenantId, runId } });
  }

  /** Revokes once: a second revocation (or two at once) keeps the first time and who did it. Null: no such link. */
  async revoke(tenantId: string, runId: string, shareId: string, actor: string, db: Db = this.prisma): Promise<ReportShareRow | null> {
    await db.reportShare.updateMany({
      where: { id: shareId, tenantId, runId, revokedAt: null },
      data: { revokedAt: new Date(), revokedBy: actor },
    });
    return this.find(tenantId, runId, shareId, db);
  }

  /** A presented token, read from Postgres on every request (no cache), so a revocation takes effect at once. */
  async check(presented: string, now = new Date()): Promise<ShareCheck> {
    const parsed = parseShareToken(presented);
    if (!parsed) return { status: 'invalid' };
    const share = await this.prisma.reportShare.findUnique({ where: { prefix: parsed.prefix } });
    if (!share || !secretMatches(parsed.secret, share.secretHash)) return { status: 'invalid' };
    if (share.revokedAt) return { status: 'revoked', share };
    if (share.expiresAt.getTime() <= now.getTime()) return { status: 'expired', share };
    return { status: 'valid', share };
  }
}
