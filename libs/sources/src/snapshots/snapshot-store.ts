import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import {
  confirmSnapshotFetched,
  documentForSnapshot,
  documentsForSnapshot,
  findSnapshot,
  freshSnapshotByUrl,
  insertOrFindSnapshot,
  insertOrFindSnapshots,
  recorded,
  type Db,
  type SnapshotRow,
} from '@dossier/db';
import { DocumentNotFoundError, SnapshotNotFoundError } from '../errors';
import { contentHash } from '../ingest/ingest-paths';
import { corpusUrl } from '../search/corpus-url';
import { assertExcerpt, sliceText } from './excerpt';

export type { SnapshotRow };

const Id = z.uuid();
const FetchedText = z.object({
  url: z.url(),
  title: z.string(),
  text: z.string().min(1),
  mediaType: z.string().min(1),
  fetchedAt: z.date().optional(),
});

const RecordedDocument = z.strictObject({
  url: z.string(),
  title: z.string(),
  contentHash: z.string(),
  text: z.string(),
  mediaType: z.string(),
});

/**
 * Source snapshots: the frozen text that evidence offsets index into. Stored once per tenant and content
 * hash, so the same text fetched or ingested twice (in any run) is one snapshot whose text never changes.
 * Every method takes the `Db` to use. Writers should pass the client, not a long transaction: two
 * transactions that each hold one new snapshot and wait for the other's deadlock (docs/decisions/0012).
 */
@Injectable()
export class SnapshotStore {
  /**
   * The snapshot of a corpus document's current text (created on first use, reused after). If the
   * document later changes, its new text gets a new snapshot; old evidence keeps pointing at the old one.
   */
  async fromDocument(db: Db, tenantId: string, documentId: string): Promise<SnapshotRow> {
    // A corpus document's text is an answer the run consumed like a web page's (decision 0030): recorded, so a replay
    // after the document changed, or in another installation without the collection, reads the same text.
    let live = null as SnapshotRow | null;
    const document = await recorded(
      { kind: 'document', request: { documentId }, name: `corpus document ${documentId}` },
      RecordedDocument,
      async () => {
        live = await this.documentSnapshot(db, tenantId, documentId);
        const { url, title, contentHash, text, mediaType } = live;
        return { url, title, contentHash, text, mediaType };
      },
    );
    return live ?? (await insertOrFindSnapshot(db, { tenantId, ...document })).row;
  }

  /**
   * `fromDocument` of several documents, by document id: each still its own recorded call (a replay reads each from the
   * recording), the calls at once, and the live ones served together — the documents read in one statement and their
   * snapshots stored in one (plus one read of those another run had stored). A retrieve shard's hits were a dozen
   * statements per document one after the other (decision 0134).
   */
  async fromDocuments(db: Db, tenantId: string, documentIds: readonly string[]): Promise<Map<string, SnapshotRow>> {
    const ids = [...new Set(documentIds)].map((id) => Id.parse(id));
    let live: Promise<Map<string, SnapshotRow>> | undefined;
    const liveSnapshots = (): Promise<Map<string, SnapshotRow>> => (live ??= this.documentSnapshots(db, Id.parse(tenantId), ids));
    const rows = await Promise.all(
      ids.map(async (documentId) => {
        let row = null as SnapshotRow | null;
        const document = await recorded(
          { kind: 'document', request: { documentId }, name: `corpus document ${documentId}` },
          RecordedDocument,
          async () => {
            row = (await liveSnapshots()).get(documentId) ?? null;
            if (!row) throw new DocumentNotFoundError(`document ${documentId} not found`, { details: { documentId } });
            const { url, title, contentHash, text, mediaType } = row;
            return { url, title, contentHash, text, mediaType };
          },
        );
        return [documentId, row ?? (await insertOrFindSnapshot(db, { tenantId, ...document })).row] as const;
      }),
    );
    return new Map(rows);
  }

  /** The snapshots of the tenant's documents found among `ids` (stored on first use), by document id. */
  private async documentSnapshots(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, SnapshotRow>> {
    const documents = await documentsForSnapshot(db, tenantId, ids);
    const stored = await insertOrFindSnapshots(
      db,
      tenantId,
      [...documents.values()].map((d) => ({
        tenantId,
        url: corpusUrl(d.collection.name, d.path),
        title: d.title,
        contentHash: d.contentHash,
        text: d.text,
        mediaType: d.mediaType,
      })),
    );
    return new Map([...documents].map(([id, d]) => [id, stored.get(d.contentHash)!]));
  }

  private async documentSnapshot(db: Db, tenantId: string, documentId: string): Promise<SnapshotRow> {
    const id = Id.parse(documentId);
    const document = await documentForSnapshot(db, Id.parse(tenantId), id);
    if (!document) throw new DocumentNotFoundError(`document ${documentId} not found`, { details: { documentId } });
    // Never rewrite a snapshot: its text is what earlier evidence offsets point into. Insert-if-absent is one
    // statement, so runs storing the same document at once all get the one snapshot (docs/decisions/0012).
    const { row } = await insertOrFindSnapshot(db, {
      tenantId,
      url: corpusUrl(document.collection.name, document.path),
      title: document.title,
      contentHash: document.contentHash,
      text: document.text,
      mediaType: document.mediaType,
    });
    return row;
  }

  /**
   * The tenant's most recent snapshot of `url` fetched (or re-confirmed) less than `maxAgeMs` ago, or null.
   * Never another tenant's: snapshots are per tenant even when the text is the same.
   */
  findFreshByUrl(db: Db, tenantId: string, url: string, maxAgeMs: number, now: Date = new Date()): Promise<SnapshotRow | null> {
    return freshSnapshotByUrl(db, Id.parse(tenantId), url, new Date(now.getTime() - maxAgeMs));
  }

  /**
   * The snapshot of a fetched page's text, stored once per (tenant, content hash): the same text fetched again
   * is the same snapshot, whose text is never rewritten. Fetching the same text at the same URL again moves
   * its `fetchedAt` forward (the cache's age counts from the last fetch that confirmed it); only forward, so
   * concurrent fetches end at the latest. When the text is already stored under another URL, that snapshot
   * is returned unchanged: it keeps its URL, since earlier evidence cites it.
   */
  async fromFetched(
    db: Db,
    tenantId: string,
    page: { url: string; title: string; text: string; mediaType: string; fetchedAt?: Date },
  ): Promise<SnapshotRow> {
    const { url, title, text, mediaType, fetchedAt = new Date() } = FetchedText.parse(page);
    const hash = contentHash(text);
    const { row, created } = await insertOrFindSnapshot(db, {
      tenantId: Id.parse(tenantId),
      url,
      title,
      contentHash: hash,
      text,
      mediaType,
      fetchedAt,
    });
    if (created || row.url !== url || row.fetchedAt >= fetchedAt) return row;
    return confirmSnapshotFetched(db, row.id, fetchedAt);
  }

  /** The tenant's snapshot, or null. */
  find(db: Db, tenantId: string, snapshotId: string): Promise<SnapshotRow | null> {
    const id = Id.parse(snapshotId);
    return findSnapshot(db, Id.parse(tenantId), id);
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
