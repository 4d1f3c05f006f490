import { createHash } from 'node:crypto';
import type { ResearchRepository, OutlineSectionRow } from '@dossier/db';
import { documentVoice, MAX_CONTESTED } from '@dossier/agents';
import { StageStateError } from '@dossier/errors';
import { claimTerms, contestedClaimIds, reservedReasons, runDisputes } from './frame/disagreements';

/** The section at `position` of the approved outline, its claims and their evidence, in outline order. */
export async function sectionMaterial(research: ResearchRepository, tenantId: string, runId: string, position: number) {
  const outline = await research.latestOutline(tenantId, runId);
  const section: OutlineSectionRow | undefined = outline[position];
  if (!section) throw new StageStateError(`The outline has no section ${position}`, { runId });
  const wanted = section.claimIds as string[];
  const claims = (await research.claims(tenantId, runId, { id: { in: wanted } })).sort(
    (a, b) => wanted.indexOf(a.id) - wanted.indexOf(b.id),
  );
  const evidence = await research.evidence(tenantId, runId, { id: { in: claims.flatMap((c) => c.evidenceIds) } });
  return { section, claims, evidence };
}

/**
 * The section's material (sectionMaterial); and the run's contested positions, which the section must not state: both
 * sides of every contradiction the run recorded (presented in "Where the sources disagree"), and of every pair of its
 * claims that says opposite things about the same subject; and the reasons that section gives for them (decision 0105).
 */
export async function sectionInputs(research: ResearchRepository, tenantId: string, runId: string, position: number) {
  const { section, claims, evidence } = await sectionMaterial(research, tenantId, runId, position);
  const { contested, voices } = await runContested(research, tenantId, runId);
  const voiceOf = (snapshotId: string) => voices.get(snapshotId) ?? undefined;
  return { section, claims, evidence, contested: [...contested], voiceOf };
}

interface RunContested {
  contested: readonly string[];
  voices: ReadonlyMap<string, ReturnType<typeof documentVoice>>;
}

/**
 * The run-wide part of a section's inputs, by what it is made of: every shard of a draft fan-out asks for the same,
 * at once, in one process, and the disputes, the reserved reasons and the sources' voices took tens of ms of CPU each
 * time (decision 0143). Keyed by the rows it is computed from (the contradictions, every claim, every evidence row's
 * id, excerpt and snapshot), so a row written or changed in between is a miss, never a stale answer; a snapshot's text
 * never changes under its id (one per tenant and content hash), so its id stands for it.
 */
const computed = new Map<string, Promise<RunContested>>();
const MAX_COMPUTED = 32;

async function runContested(research: ResearchRepository, tenantId: string, runId: string): Promise<RunContested> {
  const [contradictions, all, everything] = await Promise.all([
    research.contradictions(tenantId, runId),
    research.claims(tenantId, runId),
    research.evidence(tenantId, runId),
  ]);
  const key = createHash('sha256')
    .update(JSON.stringify([tenantId, runId, contradictions, all, everything.map((e) => [e.id, e.excerpt, e.snapshotId])]))
    .digest('hex');
  const known = computed.get(key);
  if (known) return known;
  // The promise is kept at once: the other shards, arriving while this one reads the snapshots, wait for it.
  const made = contestedFrom(research, tenantId, contradictions, all, everything);
  if (computed.size >= MAX_COMPUTED) computed.delete(computed.keys().next().value!);
  computed.set(key, made);
  made.catch(() => computed.get(key) === made && computed.delete(key));
  return made;
}

async function contestedFrom(
  research: ResearchRepository,
  tenantId: string,
  contradictions: Awaited<ReturnType<ResearchRepository['contradictions']>>,
  all: Awaited<ReturnType<ResearchRepository['claims']>>,
  everything: Awaited<ReturnType<ResearchRepository['evidence']>>,
): Promise<RunContested> {
  const snapshots = await research.snapshots(tenantId, [...new Set(everything.map((e) => e.snapshotId))]);
  // Disputes the contradiction step did not pair count too (decision 0087); two claims about different terms are none (0154).
  const terms = claimTerms(all, everything, snapshots);
  const ids = contestedClaimIds(runDisputes(contradictions, all, terms), all);
  // Who wrote each source, for the first-person sentences of its excerpts (decision 0102).
  const voices = new Map(snapshots.map((s) => [s.id, documentVoice(s.text)]));
  // The reasons "Where the sources disagree" gives are its own: the body does not state them (decision 0105).
  const reasons = reservedReasons(
    contradictions,
    all,
    everything.map((e) => ({ id: e.id, excerpt: e.excerpt, voice: voices.get(e.snapshotId) ?? null })),
    terms,
  );
  const contested = [
    ...reasons,
    ...all
      .filter((c) => ids.has(c.id))
      .sort((a, b) => b.evidenceIds.length - a.evidenceIds.length)
      .map((c) => c.statement),
  ].slice(0, MAX_CONTESTED);
  return { contested, voices };
}

export interface DraftSentence {
  text: string;
  evidenceIds: string[];
  /** Rewritten by the repairer after failing verification (counted in the report's verification figures). */
  repaired?: boolean;
}
export type DraftParagraphs = { sentences: DraftSentence[] }[];
