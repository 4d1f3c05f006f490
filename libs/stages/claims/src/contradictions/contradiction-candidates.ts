import { pointId, type Embedder, type VectorHit, type VectorQuery, type VectorStore } from '@dossier/vectors';

/** Neighbours searched per claim and per evidence item. */
const NEIGHBOURS = 8;
/** Below this similarity two statements are not about the same thing. */
export const MIN_SIMILARITY = 0.25;

export interface CandidateClaim {
  id: string;
  statement: string;
  evidenceIds: readonly string[];
}

/**
 * Pairs of claims worth judging for a contradiction (DESIGN §8, decision 0020): the claims near each new claim in the
 * claims collection, and the claims citing evidence near each of its evidence items in the evidence collection (the
 * evidence vectors the claims step stored). Embeddings that carry meaning find a pair that shares few words but says
 * the opposite ("the reservoir shrank sharply" / "the lake level climbed steadily"). Pairs come ordered by their
 * statements, so the same claims give the same pairs.
 */
export async function contradictionCandidates(
  store: VectorStore,
  embedder: Embedder,
  collections: { claims: string; evidence: string },
  claims: readonly CandidateClaim[],
  fresh: ReadonlySet<string>,
  excerpts: ReadonlyMap<string, string>,
  scope: { tenantId: string; runId: string },
): Promise<[string, string][]> {
  await store.ensureCollection(collections.claims, embedder.dimension);
  const vectors = claims.length > 0 ? await embedder.embed(claims.map((c) => c.statement)) : [];
  // Idempotent: the point id is derived from the claim id, so a re-run upserts the same points.
  await store.upsert(
    collections.claims,
    claims.map((c, i) => ({ id: pointId(`claim:${c.id}`), vector: vectors[i]!, payload: { ...scope, kind: 'claim', claimId: c.id } })),
  );
  const byPoint = new Map(claims.map((c) => [pointId(`claim:${c.id}`), c]));
  const citing = new Map<string, CandidateClaim[]>();
  for (const c of claims) for (const e of c.evidenceIds) citing.set(e, [...(citing.get(e) ?? []), c]);
  const pairs = new Map<string, [string, string]>();
  const add = (a: CandidateClaim, b: CandidateClaim) => {
    if (a.id === b.id) return;
    const [x, y] = [a, b].sort((p, q) => p.statement.localeCompare(q.statement) || p.id.localeCompare(q.id));
    pairs.set(`${x!.id}|${y!.id}`, [x!.id, y!.id]);
  };
  await store.ensureCollection(collections.evidence, embedder.dimension);
  // The passages of the new claims, embedded once (the store keeps vectors for search, it does not hand them back).
  const passageIds = [...new Set(claims.filter((c) => fresh.has(c.id)).flatMap((c) => c.evidenceIds))].filter((id) => excerpts.has(id));
  const passageVectors = new Map(
    (passageIds.length > 0 ? await embedder.embed(passageIds.map((id) => excerpts.get(id)!)) : []).map((v, k) => [passageIds[k]!, v]),
  );
  // Every search of the new claims in one batch per collection (one request each to a server that takes batches,
  // decision 0156), then their hits in the claims' order.
  const searches = claims.flatMap((claim, i) =>
    fresh.has(claim.id)
      ? [
          { claim, collection: collections.claims, vector: vectors[i]!, kind: 'claim' as const },
          // Through the evidence: a claim whose passages sit near this claim's passages talks about the same thing.
          ...claim.evidenceIds.flatMap((id) => {
            const vector = passageVectors.get(id);
            return vector ? [{ claim, collection: collections.evidence, vector, kind: 'evidence' as const }] : [];
          }),
        ]
      : [],
  );
  const found = await searchEach(store, searches, (s) => ({
    vector: s.vector,
    opts: { filter: { ...scope, kind: s.kind }, limit: NEIGHBOURS + 1, minScore: MIN_SIMILARITY },
  }));
  for (const [k, s] of searches.entries()) {
    for (const hit of found[k]!) {
      if (s.kind === 'claim') {
        const other = byPoint.get(hit.id);
        if (other) add(s.claim, other);
      } else {
        for (const other of citing.get(String(hit.payload['evidenceId'])) ?? []) add(s.claim, other);
      }
    }
  }
  const statement = new Map(claims.map((c) => [c.id, c.statement]));
  const key = ([a, b]: [string, string]) => `${statement.get(a)}\u0000${statement.get(b)}`;
  return [...pairs.values()].sort((x, y) => key(x).localeCompare(key(y)));
}

/** The hits of searches over several collections, in the searches' order: one `searchMany` per collection, together. */
async function searchEach<S extends { collection: string }>(
  store: VectorStore,
  searches: readonly S[],
  query: (search: S) => VectorQuery,
): Promise<VectorHit[][]> {
  const byCollection = new Map<string, number[]>();
  searches.forEach((s, k) => byCollection.set(s.collection, [...(byCollection.get(s.collection) ?? []), k]));
  const found = new Array<VectorHit[]>(searches.length);
  await Promise.all(
    [...byCollection].map(async ([collection, ks]) => {
      const hits = await store.searchMany(
        collection,
        ks.map((k) => query(searches[k]!)),
      );
      ks.forEach((k, j) => (found[k] = hits[j]!));
    }),
  );
  return found;
}
