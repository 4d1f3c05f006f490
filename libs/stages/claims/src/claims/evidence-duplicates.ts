import { guardSentence } from '@dossier/agents';
import { pointId, type Embedder, type VectorStore } from '@dossier/vectors';

/** Evidence this similar (cosine of their embeddings) from two sources may be one statement twice. */
export const DUPLICATE_SIMILARITY = 0.9;
const NEIGHBOURS = 6;

export interface EvidenceForDedup {
  id: string;
  excerpt: string;
  snapshotId: string;
}

/**
 * Stores the vectors of this iteration's evidence and groups near-duplicates across sources (decision 0020): neighbours
 * at DUPLICATE_SIMILARITY or more, from another snapshot, that also state the same figures, dates, names and polarity
 * (the verification guard, both ways — embeddings put "rose 4 m" and "fell 4 m" close). Returns each grouped evidence
 * id's lead: the earliest of its group, older evidence first.
 */
export async function groupDuplicateEvidence(
  store: VectorStore,
  collection: string,
  embedder: Embedder,
  fresh: readonly EvidenceForDedup[],
  older: readonly EvidenceForDedup[],
  scope: { tenantId: string; runId: string },
  /** The run changed embedders (decision 0043): the older evidence is stored in this embedder's collection too. */
  withOlder = false,
): Promise<Map<string, string>> {
  await store.ensureCollection(collection, embedder.dimension);
  const stored = withOlder ? [...older, ...fresh] : fresh;
  const all = stored.length > 0 ? await embedder.embed(stored.map((e) => e.excerpt)) : [];
  // Idempotent: the point id derives from the evidence id, so a step run again upserts the same points.
  await store.upsert(
    collection,
    stored.map((e, i) => ({
      id: pointId(`evidence:${e.id}`),
      vector: all[i]!,
      payload: { ...scope, kind: 'evidence', evidenceId: e.id, snapshotId: e.snapshotId },
    })),
  );
  const vectors = all.slice(stored.length - fresh.length);
  const order = new Map([...older, ...fresh].map((e, i) => [e.id, i]));
  const byId = new Map([...older, ...fresh].map((e) => [e.id, e]));
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    const p = parent.get(id);
    if (p === undefined || p === id) return id;
    const root = find(p);
    parent.set(id, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra === rb) return;
    const [lead, other] = (order.get(ra) ?? 0) <= (order.get(rb) ?? 0) ? [ra, rb] : [rb, ra];
    parent.set(other, lead);
    parent.set(lead, lead);
  };
  // One batch: a request to a server that takes them, not one per passage (decision 0156).
  const neighbours = await store.searchMany(
    collection,
    fresh.map((_, i) => ({
      vector: vectors[i]!,
      opts: { filter: { ...scope, kind: 'evidence' }, limit: NEIGHBOURS + 1, minScore: DUPLICATE_SIMILARITY },
    })),
  );
  for (const [i, e] of fresh.entries()) {
    for (const hit of neighbours[i]!) {
      const other = byId.get(String(hit.payload['evidenceId']));
      if (!other || other.id === e.id || other.snapshotId === e.snapshotId) continue;
      if (!guardSentence(e.excerpt, [other.excerpt]).ok || !guardSentence(other.excerpt, [e.excerpt]).ok) continue;
      union(e.id, other.id);
    }
  }
  const leads = new Map<string, string>();
  for (const id of parent.keys()) leads.set(id, find(id));
  return leads;
}
