import { LlmCallNotes, type LlmUsage, type ModelOutputMetrics } from '@dossier/contracts';

/** One group of the run's llm_calls rows (Prisma's groupBy by role, model and engine). */
export interface UsageGroup {
  role: string;
  model: string;
  engine: string;
  _count: { _all: number };
  _sum: { tokensIn: number | null; tokensOut: number | null; costUsd: number | null };
}

/** The engine whose llm_calls rows are plays, not requests: it sends nothing and its "tokens" are word counts. */
const OFFLINE_ENGINE = 'offline';

/**
 * The run's llm_calls summed (decision 0040): model requests — every row of a model engine is one request the endpoint
 * received — with their tokens and cost, overall and by role, model and engine; the offline engine's plays counted
 * apart, by role, with no tokens (its rows hold word counts, which are no one's tokens).
 */
export function llmUsage(groups: UsageGroup[]) {
  const empty = (): LlmUsage => ({ calls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 });
  const add = (into: LlmUsage, g: UsageGroup) => {
    into.calls += g._count._all;
    into.tokensIn += g._sum.tokensIn ?? 0;
    into.tokensOut += g._sum.tokensOut ?? 0;
    into.costUsd += g._sum.costUsd ?? 0;
  };
  const total = empty();
  const byRole: Record<string, LlmUsage> = {};
  const byModel: Record<string, LlmUsage> = {};
  const byEngine: Record<string, LlmUsage> = {};
  const offline = { total: 0, byRole: {} as Record<string, number> };
  // Sorted so equal runs give byte-equal reports.
  for (const g of [...groups].sort((a, b) => `${a.role} ${a.model} ${a.engine}`.localeCompare(`${b.role} ${b.model} ${b.engine}`))) {
    if (g.engine === OFFLINE_ENGINE) {
      offline.total += g._count._all;
      offline.byRole[g.role] = (offline.byRole[g.role] ?? 0) + g._count._all;
      (byEngine[g.engine] ??= empty()).calls += g._count._all;
      continue;
    }
    add(total, g);
    add((byRole[g.role] ??= empty()), g);
    add((byModel[g.model] ??= empty()), g);
    add((byEngine[g.engine] ??= empty()), g);
  }
  return {
    total: {
      llmCalls: total.calls,
      modelRequests: total.calls,
      offlinePlays: offline,
      tokensIn: total.tokensIn,
      tokensOut: total.tokensOut,
      costUsd: total.costUsd,
    },
    byRole,
    byModel,
    byEngine,
  };
}

/** How the model's answers were handled, from the notes on the run's llm_calls rows (decision 0019). */
export function modelOutputMetrics(rows: readonly { role: string; engine: string; notes: unknown }[]): ModelOutputMetrics {
  const out: ModelOutputMetrics = { locallyRepaired: 0, repairRequests: 0, trimmed: 0, droppedIds: 0, skipped: {}, offline: {} };
  for (const row of rows) {
    const parsed = LlmCallNotes.safeParse(row.notes ?? {});
    if (!parsed.success) continue;
    const n = parsed.data;
    if ((n.localRepairs?.length ?? 0) > 0) out.locallyRepaired++;
    if (n.repairRequest) out.repairRequests++;
    out.trimmed += n.trimmed ?? 0;
    out.droppedIds += n.droppedIds ?? 0;
    if (n.gaveUp === 'skipped') out.skipped[row.role] = (out.skipped[row.role] ?? 0) + 1;
    if (n.fallback === 'unusable') out.offline[row.role] = (out.offline[row.role] ?? 0) + 1;
  }
  return out;
}

/** What the text gate removed from the model's answers, summed from the notes on the run's llm_calls rows (decision 0041). */
export function hygieneDropped(rows: readonly { notes: unknown }[]): { leaked: number; duplicates: number; fragments: number } {
  const out = { leaked: 0, duplicates: 0, fragments: 0 };
  for (const row of rows) {
    const parsed = LlmCallNotes.safeParse(row.notes ?? {});
    const h = parsed.success ? parsed.data.hygiene : undefined;
    if (!h) continue;
    out.leaked += h.leaked;
    out.duplicates += h.duplicates;
    out.fragments += h.fragments;
  }
  return out;
}
