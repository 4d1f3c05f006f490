import type { ResearchRepository, OutlineSectionRow } from '@dossier/db';
import { documentVoice, MAX_CONTESTED } from '@dossier/agents';
import { StageStateError } from '@dossier/errors';
import { contestedClaimIds, reservedReasons, runDisputes } from './frame/disagreements';

/**
 * The section at `position` of the approved outline, its claims and their evidence, in outline order; and the run's
 * contested positions, which the section must not state: both sides of every contradiction the run recorded (presented
 * in "Where the sources disagree"), and of every pair of its claims that says opposite things about the same subject;
 * and the reasons that section gives for them (decision 0105).
 */
export async function sectionInputs(research: ResearchRepository, tenantId: string, runId: string, position: number) {
  const outline = await research.latestOutline(tenantId, runId);
  const section: OutlineSectionRow | undefined = outline[position];
  if (!section) throw new StageStateError(`The outline has no section ${position}`, { runId });
  const wanted = section.claimIds as string[];
  const claims = (await research.claims(tenantId, runId, { id: { in: wanted } })).sort(
    (a, b) => wanted.indexOf(a.id) - wanted.indexOf(b.id),
  );
  const evidence = await research.evidence(tenantId, runId, { id: { in: claims.flatMap((c) => c.evidenceIds) } });
  const [contradictions, all] = await Promise.all([research.contradictions(tenantId, runId), research.claims(tenantId, runId)]);
  // Disputes the contradiction step did not pair count too (decision 0087).
  const ids = contestedClaimIds(runDisputes(contradictions, all), all);
  // Who wrote each source, for the first-person sentences of its excerpts (decision 0102).
  const everything = await research.evidence(tenantId, runId);
  const snapshots = await research.snapshots(tenantId, [...new Set(everything.map((e) => e.snapshotId))]);
  const voices = new Map(snapshots.map((s) => [s.id, documentVoice(s.text)]));
  // The reasons "Where the sources disagree" gives are its own: the body does not state them (decision 0105).
  const reasons = reservedReasons(
    contradictions,
    all,
    everything.map((e) => ({ id: e.id, excerpt: e.excerpt, voice: voices.get(e.snapshotId) ?? null })),
  );
  const contested = [
    ...reasons,
    ...all
      .filter((c) => ids.has(c.id))
      .sort((a, b) => b.evidenceIds.length - a.evidenceIds.length)
      .map((c) => c.statement),
  ].slice(0, MAX_CONTESTED);
  const voiceOf = (snapshotId: string) => voices.get(snapshotId) ?? undefined;
  return { section, claims, evidence, contested, voiceOf };
}

export interface DraftSentence {
  text: string;
  evidenceIds: string[];
  /** Rewritten by the repairer after failing verification (counted in the report's verification figures). */
  repaired?: boolean;
}
export type DraftParagraphs = { sentences: DraftSentence[] }[];
