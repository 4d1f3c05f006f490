import type { RunActivityView } from '@dossier/contracts';
import type { Db } from '../prisma.service';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** Enough for a live view to tell the story; the report and /claims have everything. */
const EXAMPLES_PER_ITERATION = 3;
const MAX_CONTRADICTIONS = 50;

/** The read behind GET /v1/runs/{id}/activity: tenant-scoped, one query per table, nothing the run did not store. */
export async function runActivity(db: Db, tenantId: string, runId: string): Promise<RunActivityView> {
  const where = { tenantId, runId };
  const [plans, selected, evidence, claims, contradictions] = await Promise.all([
    db.searchPlan.findMany({ where, orderBy: [{ iteration: 'asc' }, { shard: 'asc' }] }),
    db.sourceRecord.findMany({
      where: { ...where, selected: true, extractShard: { not: null } },
      orderBy: [{ iteration: 'asc' }, { extractShard: 'asc' }],
    }),
    db.evidenceFragment.groupBy({ by: ['snapshotId', 'iteration'], where, _count: { _all: true } }),
    db.claim.findMany({ where, select: { id: true, iteration: true, statement: true }, orderBy: { iteration: 'asc' } }),
    db.contradiction.findMany({ where, take: MAX_CONTRADICTIONS }),
  ]);
  const evidenceOf = new Map(evidence.map((e) => [`${e.snapshotId}:${e.iteration}`, e._count._all]));
  const claimIteration = new Map(claims.map((c) => [c.id, c.iteration]));
  const byIteration = new Map<number, string[]>();
  for (const c of claims) byIteration.set(c.iteration, [...(byIteration.get(c.iteration) ?? []), c.statement]);
  return {
    queries: plans.map((p) => ({ iteration: p.iteration, shard: p.shard, query: clip(p.query, 300), provider: p.provider })),
    reading: selected.map((s) => ({
      iteration: s.iteration,
      shard: s.extractShard!,
      title: clip(s.title, 200),
      url: clip(s.url, 500),
      origin: s.origin,
      evidence: s.snapshotId ? (evidenceOf.get(`${s.snapshotId}:${s.iteration}`) ?? 0) : 0,
    })),
    claims: [...byIteration].map(([iteration, statements]) => ({
      iteration,
      count: statements.length,
      examples: statements.slice(0, EXAMPLES_PER_ITERATION).map((s) => clip(s, 240)),
    })),
    contradictions: contradictions.map((c) => ({
      // Found when the later of its two claims was made.
      iteration: Math.max(claimIteration.get(c.claimAId) ?? 0, claimIteration.get(c.claimBId) ?? 0),
      kind: c.kind,
      note: clip(c.note, 300),
    })),
  };
}
