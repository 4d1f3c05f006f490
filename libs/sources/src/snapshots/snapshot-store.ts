import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import type { Db, Prisma } from '@dossier/db';
import { DocumentNotFoundError, SnapshotNotFoundError } from '../errors';
import { corpusUrl } from '../search/corpus-url';
import { assertExcerpt, sliceText } from './excerpt';

const Id = z.uuid();

export type SnapshotRow = Prisma.SourceSnapshotGetPayload<object>;

/**
 * Source snapshots: the frozen text that evidence offsets index into. Stored once per tenant and content
 * hash, so the same text fetched or ingested twice (in any run) is one snapshot whose text never changes.
 * Every method takes the `Db` to use, so callers can run it inside their step's transaction.
 */
@Injectable()
export class SnapshotStore {
  /**
   * The snapshot of a corpus document's current text (created on first use, reused after). If the
   * document later changes, its new text gets a new snapshot; old evidence keeps pointing at the old one.
   */
  async fromDocument(db: Db, tenantId: string, documentId: string): Promise<SnapshotRow> {
    const document = await db.document.findFirst({
      where: { id: Id.parse(documentId), tenantId: Id.parse(tenantId) },
      select: { path: true, title: true, text: true, mediaType: true, contentHash: true, collection: { select: { name: true } } },
    });
    if (!document) throw new DocumentNotFoundError(`document ${documentId} not found`, { details: { documentId } });
    return db.sourceSnapshot.upsert({
      where: { tenantId_contentHash: { tenantId, contentHash: document.contentHash } },
      create: {
        tenantId,
        url: corpusUrl(document.collection.name, document.path),
        title: document.title,
        contentHash: document.contentHash,
        text: document.text,
        mediaType: document.mediaType,
      },
      // Never rewrite a snapshot: its text is what earlier evidence offsets point into.
      update: {},
    });
  }

  /** The tenant's snapshot, or null. */
  find(db: Db, tenantId: string, snapshotId: string): Promise<SnapshotRow | null> {
    return db.sourceSnapshot.findFirst({ where: { id: Id.parse(snapshotId), tenantId: Id.parse(tenantId) } });
  }

  /** The tenant's snapshot; throws SnapshotNotFoundError when it does not exist (or is another tenant's). */
  async get(db: Db, tenantId: string, snapshotId: string): Promise<SnapshotRow> {
    const snapshot = await this.find(db, tenantId, snapshotId);
    if (!snapshot) throw new SnapshotNotFoundError(`snapshot ${snapshotId} not found`, { details: { snapshotId } });
    return snapshot;
  }

  /** The snapshot text at [start, end) (UTF-16 offsets, end exclusive); throws ExcerptRangeError if out of range. */
  slice(snapshot: Pick<SnapshotRow, 'text'>, start: number, end: number): string {
    return sliceText(snapshot.text, start, end);
  }

  /** Throws ExcerptMismatchError unless `excerpt` is exactly the snapshot text at [start, end). */
  assertExcerpt(snapshotText: string, excerpt: string, start: number, end: number): void {
    assertExcerpt(snapshotText, excerpt, start, end);
  }
}
