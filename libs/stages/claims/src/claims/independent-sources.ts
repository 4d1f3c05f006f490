import { normalizeWhitespace } from '@dossier/agents';
import type { EpistemicStatus as Status } from '@dossier/contracts';
import type { z } from 'zod';

type EpistemicStatus = z.infer<typeof Status>;

/** Independent sources that must agree before a claim is `established`. */
export const ESTABLISHED_AT = 2;

export interface EvidenceSource {
  id: string;
  excerpt: string;
  /** The independence cluster of the evidence's source (copies of one text share one), or its snapshot. */
  cluster: string;
}

/**
 * How many independent sources stand behind these evidence ids (decision 0020): distinct independence clusters (the
 * source policy puts copies of one page, and near-identical texts, in one), and a passage copied word for word into
 * sources of different clusters counts once — syndication, not corroboration.
 */
export function independentSources(evidenceIds: readonly string[], sources: ReadonlyMap<string, EvidenceSource>): number {
  const clusters = new Map<string, string>();
  const byText = new Map<string, string>();
  for (const id of evidenceIds) {
    const e = sources.get(id);
    if (!e) continue;
    const text = normalizeWhitespace(e.excerpt).toLowerCase();
    const cluster = byText.get(text) ?? e.cluster;
    byText.set(text, cluster);
    clusters.set(cluster, cluster);
  }
  return clusters.size;
}

/**
 * The status a claim gets from its evidence: speculative and contested are kept (hedged evidence, a contradiction);
 * otherwise established only when at least ESTABLISHED_AT independent sources support it, whatever the model said.
 */
export function scoreStatus(said: EpistemicStatus, independent: number): EpistemicStatus {
  if (said === 'speculative' || said === 'contested') return said;
  return independent >= ESTABLISHED_AT ? 'established' : 'reported';
}
