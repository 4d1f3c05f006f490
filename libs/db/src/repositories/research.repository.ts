import { Injectable } from '@nestjs/common';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

type Row<M extends keyof Prisma.TypeMap['model']> = Prisma.TypeMap['model'][M]['payload']['scalars'];
export type ObjectiveRow = Row<'ResearchObjective'>;
export type PerspectiveRow = Row<'Perspective'>;
export type InterviewTurnRow = Row<'InterviewTurn'>;
export type QuestionRow = Row<'ResearchQuestion'>;
export type SearchPlanRow = Row<'SearchPlan'>;
export type SourceRecordRow = Row<'SourceRecord'>;
export type EvidenceRow = Row<'EvidenceFragment'>;
/** A claim with its evidence, and the sources (snapshot ids) of that evidence, distinct, in the evidence's order. */
export type ClaimRow = Row<'Claim'> & { evidenceIds: string[]; sourceIds: string[] };
export type ContradictionRow = Row<'Contradiction'>;
export type CoverageRow = Row<'QuestionCoverage'>;
export type OutlineSectionRow = Row<'OutlineSection'>;
export type SectionDraftRow = Row<'SectionDraft'>;
export type FindingRow = Row<'VerificationFinding'>;
export type FrameRow = Row<'ReportFrame'>;
export interface DroppedSources {
  sources: number;
  evidence: number;
  claims: number;
}
export interface VerifiedSection {
  sectionId: string;
  title: string;
  paragraphs: { sentences: { text: string; evidenceIds: string[] }[] }[];
}

/**
 * Reads of the research entities of one run, always filtered by tenant and run, always in a
 * deterministic order (by content and position, never by random ids) so that the same corpus and
 * question give the same report. Writes happen in the stages' step transactions (`tx`).
 */
@Injectable()
export class ResearchRepository {
  constructor(private readonly prisma: PrismaService) {}

  objective(tenantId: string, runId: string, db: Db = this.prisma): Promise<ObjectiveRow | null> {
    return db.researchObjective.findFirst({ where: { tenantId, runId } });
  }

  perspectives(tenantId: string, runId: string, revision: number, db: Db = this.prisma): Promise<PerspectiveRow[]> {
    return db.perspective.findMany({ where: { tenantId, runId, revision }, orderBy: [{ budgetWeight: 'desc' }, { name: 'asc' }] });
  }

  /** The analysts of the latest plan revision (the approved panel, once the plan gate has passed), in shard order. */
  async latestPerspectives(tenantId: string, runId: string, db: Db = this.prisma): Promise<PerspectiveRow[]> {
    const latest = await db.perspective.aggregate({ where: { tenantId, runId }, _max: { revision: true } });
    return latest._max.revision === null ? [] : this.perspectives(tenantId, runId, latest._max.revision, db);
  }

  /** The turns of a run's interviews (of one interview with `shard`), in order. */
  interviewTurns(tenantId: string, runId: string, shard?: number, db: Db = this.prisma): Promise<InterviewTurnRow[]> {
    return db.interviewTurn.findMany({
      where: { tenantId, runId, ...(shard === undefined ? {} : { shard }) },
      orderBy: [{ shard: 'asc' }, { turn: 'asc' }],
    });
  }

  /** Questions that are still part of the plan (not dropped), highest priority first. */
  questions(tenantId: string, runId: string, db: Db = this.prisma, status?: string[]): Promise<QuestionRow[]> {
    return db.researchQuestion.findMany({
      where: { tenantId, runId, status: status ? { in: status } : { not: 'dropped' } },
      orderBy: [{ priority: 'desc' }, { iteration: 'asc' }, { text: 'asc' }],
    });
  }

  searchPlan(tenantId: string, runId: string, iteration: number, shard: number, db: Db = this.prisma): Promise<SearchPlanRow | null> {
    return db.searchPlan.findFirst({ where: { tenantId, runId, iteration, shard } });
  }

  searchPlans(tenantId: string, runId: string, db: Db = this.prisma): Promise<SearchPlanRow[]> {
    return db.searchPlan.findMany({ where: { tenantId, runId }, orderBy: [{ iteration: 'asc' }, { shard: 'asc' }] });
  }

  sourceRecords(
    tenantId: string,
    runId: string,
    where: Prisma.SourceRecordWhereInput = {},
    db: Db = this.prisma,
  ): Promise<SourceRecordRow[]> {
    return db.sourceRecord.findMany({
      where: { ...where, tenantId, runId },
      orderBy: [{ iteration: 'asc' }, { rank: 'asc' }, { canonicalUrl: 'asc' }, { searchPlanId: 'asc' }],
    });
  }

  evidence(tenantId: string, runId: string, where: Prisma.EvidenceFragmentWhereInput = {}, db: Db = this.prisma): Promise<EvidenceRow[]> {
    return db.evidenceFragment.findMany({
      where: { ...where, tenantId, runId },
      // By content, not by snapshot id: ids differ between databases, the text does not.
      orderBy: [{ iteration: 'asc' }, { excerpt: 'asc' }, { start: 'asc' }],
    });
  }

  async claims(tenantId: string, runId: string, where: Prisma.ClaimWhereInput = {}, db: Db = this.prisma): Promise<ClaimRow[]> {
    const rows = await db.claim.findMany({
      where: { ...where, tenantId, runId },
      include: { evidence: { select: { evidenceId: true, evidence: { select: { excerpt: true, start: true, snapshotId: true } } } } },
      orderBy: [{ iteration: 'asc' }, { statement: 'asc' }, { subject: 'asc' }, { status: 'asc' }],
    });
    const byContent = (a: { excerpt: string; start: number }, b: { excerpt: string; start: number }) =>
      a.excerpt < b.excerpt ? -1 : a.excerpt > b.excerpt ? 1 : a.start - b.start;
    return rows.map(({ evidence, ...c }) => {
      const sorted = [...evidence].sort((a, b) => byContent(a.evidence, b.evidence));
      return { ...c, evidenceIds: sorted.map((e) => e.evidenceId), sourceIds: [...new Set(sorted.map((e) => e.evidence.snapshotId))] };
    });
  }

  async contradictions(tenantId: string, runId: string, db: Db = this.prisma): Promise<ContradictionRow[]> {
    const rows = await db.contradiction.findMany({ where: { tenantId, runId } });
    const claims = await db.claim.findMany({
      where: { tenantId, runId, id: { in: rows.flatMap((r) => [r.claimAId, r.claimBId]) } },
      select: { id: true, statement: true },
    });
    const statement = new Map(claims.map((c) => [c.id, c.statement]));
    const key = (r: ContradictionRow) => [r.kind, r.note, statement.get(r.claimAId), statement.get(r.claimBId)].join('\u0000');
    return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  coverage(tenantId: string, runId: string, iteration: number, db: Db = this.prisma): Promise<CoverageRow[]> {
    return db.questionCoverage.findMany({ where: { tenantId, runId, iteration } });
  }

  async latestOutline(tenantId: string, runId: string, db: Db = this.prisma): Promise<OutlineSectionRow[]> {
    const latest = await db.outlineSection.findFirst({
      where: { tenantId, runId },
      orderBy: { revision: 'desc' },
      select: { revision: true },
    });
    if (!latest) return [];
    return db.outlineSection.findMany({ where: { tenantId, runId, revision: latest.revision }, orderBy: { position: 'asc' } });
  }

  /** The newest draft of a section written in round ≤ `round`. */
  latestDraft(tenantId: string, sectionId: string, round: number, db: Db = this.prisma): Promise<SectionDraftRow | null> {
    return db.sectionDraft.findFirst({ where: { tenantId, sectionId, round: { lte: round } }, orderBy: { round: 'desc' } });
  }

  findings(tenantId: string, sectionId: string, round: number, db: Db = this.prisma): Promise<FindingRow[]> {
    return db.verificationFinding.findMany({ where: { tenantId, sectionId, round }, orderBy: [{ paragraph: 'asc' }, { sentence: 'asc' }] });
  }

  latestFrame(tenantId: string, runId: string, db: Db = this.prisma): Promise<FrameRow | null> {
    return db.reportFrame.findFirst({ where: { tenantId, runId }, orderBy: { revision: 'desc' } });
  }

  /**
   * The report's body: per outline section, the draft of the last verify round with only the sentences
   * that round found supported (the others were repaired in a later round or are dropped here).
   */
  async verifiedSections(tenantId: string, runId: string, db: Db = this.prisma): Promise<VerifiedSection[]> {
    const last = await db.verificationFinding.findFirst({
      where: { tenantId, runId },
      orderBy: { round: 'desc' },
      select: { round: true },
    });
    const round = last?.round ?? 0;
    const out: VerifiedSection[] = [];
    for (const section of await this.latestOutline(tenantId, runId, db)) {
      const draft = await this.latestDraft(tenantId, section.id, round, db);
      if (!draft) continue;
      const supported = new Set(
        (await this.findings(tenantId, section.id, round, db))
          .filter((f) => f.verdict === 'supported')
          .map((f) => `${f.paragraph}.${f.sentence}`),
      );
      const paragraphs = (draft.paragraphs as VerifiedSection['paragraphs'])
        .map((p, pi) => ({ sentences: p.sentences.filter((_, si) => supported.has(`${pi}.${si}`)) }))
        .filter((p) => p.sentences.length > 0);
      out.push({ sectionId: section.id, title: section.title, paragraphs });
    }
    return out;
  }

  /**
   * Drops source records from the run (an intervention excluded them): they are marked `excludedBy`, and
   * the evidence read from their snapshots is deleted, with the claims that rest only on that evidence and
   * the contradictions those claims were part of. A claim with other evidence keeps it. A snapshot that a
   * record still in the run also points to (the same text under another URL) keeps its evidence.
   */
  async dropSources(tx: Db, tenantId: string, runId: string, recordIds: string[], excludedBy: string): Promise<DroppedSources> {
    const records = await tx.sourceRecord.findMany({
      where: { tenantId, runId, id: { in: recordIds }, excludedBy: null },
      select: { id: true, snapshotId: true },
    });
    if (records.length === 0) return { sources: 0, evidence: 0, claims: 0 };
    await tx.sourceRecord.updateMany({ where: { tenantId, runId, id: { in: records.map((r) => r.id) } }, data: { excludedBy } });
    const snapshotIds = [...new Set(records.flatMap((r) => (r.snapshotId ? [r.snapshotId] : [])))];
    const kept = await tx.sourceRecord.findMany({
      where: { tenantId, runId, snapshotId: { in: snapshotIds }, excludedBy: null },
      select: { snapshotId: true },
    });
    const keptIds = new Set(kept.map((k) => k.snapshotId));
    const dropped = snapshotIds.filter((id) => !keptIds.has(id));
    const evidence = (
      await tx.evidenceFragment.findMany({ where: { tenantId, runId, snapshotId: { in: dropped } }, select: { id: true } })
    ).map((e) => e.id);
    if (evidence.length === 0) return { sources: records.length, evidence: 0, claims: 0 };
    const gone = new Set(evidence);
    const touched = await tx.claim.findMany({
      where: { tenantId, runId, evidence: { some: { evidenceId: { in: evidence } } } },
      select: { id: true, evidence: { select: { evidenceId: true } } },
    });
    const orphaned = touched.filter((c) => c.evidence.every((e) => gone.has(e.evidenceId))).map((c) => c.id);
    await tx.contradiction.deleteMany({ where: { tenantId, runId, OR: [{ claimAId: { in: orphaned } }, { claimBId: { in: orphaned } }] } });
    // Deleting evidence and claims deletes their claim_evidence links (cascade).
    await tx.claim.deleteMany({ where: { tenantId, runId, id: { in: orphaned } } });
    await tx.evidenceFragment.deleteMany({ where: { tenantId, runId, id: { in: evidence } } });
    return { sources: records.length, evidence: evidence.length, claims: orphaned.length };
  }

  snapshots(tenantId: string, ids: string[], db: Db = this.prisma): Promise<Row<'SourceSnapshot'>[]> {
    return db.sourceSnapshot.findMany({ where: { tenantId, id: { in: ids } } });
  }

  /** At most `take` of the tenant's snapshots whose id is `id` or whose content hash starts with `hashPrefix`. */
  snapshotsByIdOrHash(
    tenantId: string,
    ref: { id: string } | { hashPrefix: string },
    take: number,
    db: Db = this.prisma,
  ): Promise<Row<'SourceSnapshot'>[]> {
    const where = 'id' in ref ? { id: ref.id } : { contentHash: { startsWith: ref.hashPrefix } };
    return db.sourceSnapshot.findMany({ where: { tenantId, ...where }, take });
  }
}
