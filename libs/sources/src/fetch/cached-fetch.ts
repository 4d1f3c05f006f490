import { z } from 'zod';
import { recorded, type Db } from '@dossier/db';
import { SnapshotStore, type SnapshotRow } from '../snapshots/snapshot-store';
import { InvalidFetchUrlError } from './errors';
import { fetchDocument, type FetchedDocument } from './fetch-document';
import type { SafeFetcher } from './safe-fetcher';

export const DEFAULT_SNAPSHOT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface FetchSnapshotOptions {
  tenantId: string;
  url: string;
  fetcher: Pick<SafeFetcher, 'fetch'>;
  /** A snapshot of the URL younger than this is reused without touching the network. Default 7 days. */
  maxAgeMs?: number;
  store?: SnapshotStore;
}

export type FetchSnapshotResult =
  | { snapshot: SnapshotRow; fetched: false; document: null }
  /** `document` has what the snapshot table does not keep: final URL, byline, published date, truncation. */
  | { snapshot: SnapshotRow; fetched: true; document: FetchedDocument };

/** The URL as a cache key: parsed and serialised by the WHATWG parser (case, default port, ...), no fragment. */
export function snapshotUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new InvalidFetchUrlError(url, 'not a valid URL', err);
  }
  parsed.hash = '';
  return parsed.href;
}

/**
 * The tenant's snapshot of a URL: a fresh one is reused (no request at all), otherwise the page is fetched
 * through the SSRF-safe fetcher, extracted and stored. The snapshot is keyed by the URL as requested
 * (normalised), not the URL after redirects, so that asking for the same URL again finds it; the final
 * URL is in `document.url`. Snapshots are per tenant: another tenant's copy is never reused.
 */
export async function fetchSnapshot(db: Db, opts: FetchSnapshotOptions): Promise<FetchSnapshotResult> {
  const store = opts.store ?? new SnapshotStore();
  const url = snapshotUrl(opts.url);
  // The page the run consumed is recorded whole (decision 0030): a replay, here or after an import, needs no snapshot.
  let live = null as FetchSnapshotResult | null;
  const page = await recorded({ kind: 'page', request: { url }, name: `fetch ${url}` }, RecordedPage, async () => {
    live = await fetchLive(db, store, opts, url);
    const { snapshot } = live;
    return {
      url: snapshot.url,
      title: snapshot.title,
      text: snapshot.text,
      mediaType: snapshot.mediaType,
      fetchedAt: snapshot.fetchedAt.toISOString(),
    };
  });
  if (live) return live;
  const { fetchedAt, ...replayed } = page;
  // The original fetch time: a replay does not make the tenant's cached copy look fresher than it is.
  return {
    snapshot: await store.fromFetched(db, opts.tenantId, { ...replayed, fetchedAt: new Date(fetchedAt) }),
    fetched: false,
    document: null,
  };
}

/** A recorded page: what `fromFetched` needs to store its snapshot again. */
const RecordedPage = z.strictObject({
  url: z.string(),
  title: z.string(),
  text: z.string(),
  mediaType: z.string(),
  fetchedAt: z.iso.datetime(),
});

async function fetchLive(db: Db, store: SnapshotStore, opts: FetchSnapshotOptions, url: string): Promise<FetchSnapshotResult> {
  const fresh = await store.findFreshByUrl(db, opts.tenantId, url, opts.maxAgeMs ?? DEFAULT_SNAPSHOT_MAX_AGE_MS);
  if (fresh !== null) return { snapshot: fresh, fetched: false, document: null };
  const document = await fetchDocument(opts.fetcher, url);
  const snapshot = await store.fromFetched(db, opts.tenantId, {
    url,
    title: document.title,
    text: document.text,
    mediaType: document.mediaType,
  });
  return { snapshot, fetched: true, document };
}
