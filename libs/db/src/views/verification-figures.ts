import type { Db } from '../prisma.service';

/** What verification did in a run (decision 0020): the report's method section, its metrics and the publish gate show it. */
export interface RunVerificationFigures {
  /** Sentence checks (guard and judge together); a sentence carried over unchanged is not checked again. */
  checked: number;
  failedByGuard: number;
  failedByJudge: number;
  /** Sentences in the report that the repairer rewrote after they failed. */
  repaired: number;
  /** Sentences that failed and were dropped (by the repairer, or still failing after the last round). */
  removed: number;
  /**
   * Who judged each check (decision 0040): the model, the offline engine in its place, or the guard alone (framing
   * sentences without citations). Checks recorded before this was kept count in none of the three.
   */
  judgedByModel: number;
  judgedOffline: number;
  guardOnly: number;
  /** Repair rounds of the body. */
  rounds: number;
}

interface StoredChecks {
  guard?: unknown[];
  judge?: string | null;
  judgedBy?: 'model' | 'offline' | 'guard';
  /** Passed in an earlier round, unchanged: not checked again. */
  carried?: boolean;
  /** Written by a publish-gate redraft, whose checks the frame's figures hold. */
  redraft?: boolean;
}

interface FrameFigures {
  figures?: Omit<RunVerificationFigures, 'rounds'>;
}

/** The figures of the run's body (verify/repair rounds) and of its latest frame (framing, disagreements, redrafts). */
export async function verificationFigures(db: Db, tenantId: string, runId: string): Promise<RunVerificationFigures> {
  const [findings, repairs, frame, drafts] = await Promise.all([
    db.verificationFinding.findMany({
      where: { tenantId, runId },
      select: { round: true, verdict: true, checks: true, sectionId: true, paragraph: true, sentence: true },
    }),
    db.nodeExecution.findMany({ where: { tenantId, runId, node: 'repair', status: 'completed' }, select: { result: true } }),
    db.reportFrame.findFirst({ where: { tenantId, runId }, orderBy: { revision: 'desc' }, select: { verification: true } }),
    db.sectionDraft.findMany({ where: { tenantId, runId }, select: { sectionId: true, round: true, paragraphs: true } }),
  ]);
  const figures = {
    checked: 0,
    failedByGuard: 0,
    failedByJudge: 0,
    repaired: 0,
    removed: 0,
    judgedByModel: 0,
    judgedOffline: 0,
    guardOnly: 0,
  };
  const rounds = Math.max(0, ...findings.map((f) => f.round));
  for (const f of findings) {
    const checks = (f.checks ?? {}) as StoredChecks;
    if (checks.carried) continue;
    figures.checked++;
    if ((checks.guard?.length ?? 0) > 0) figures.failedByGuard++;
    // Findings written before the guard existed hold only the judge's verdict.
    const judge = f.checks ? checks.judge : f.verdict;
    if (judge !== null && judge !== undefined && judge !== 'supported') figures.failedByJudge++;
    if (f.round === rounds && f.verdict !== 'supported') figures.removed++;
    if (checks.judgedBy === 'model') figures.judgedByModel++;
    else if (checks.judgedBy === 'offline') figures.judgedOffline++;
    else if (checks.judgedBy === 'guard') figures.guardOnly++;
  }
  for (const r of repairs) figures.removed += Number((r.result as { dropped?: number } | null)?.dropped ?? 0);
  // Rewrites that stand: sentences the last round passed whose draft marks them repaired (a publish-gate redraft's
  // are counted with the frame's figures).
  const draftOf = (sectionId: string) =>
    drafts
      .filter((d) => d.sectionId === sectionId && d.round <= rounds)
      .reduce<(typeof drafts)[number] | undefined>((best, d) => (best && best.round >= d.round ? best : d), undefined);
  for (const f of findings) {
    if (f.round !== rounds || f.verdict !== 'supported' || (f.checks as StoredChecks | null)?.redraft) continue;
    const paragraphs = (draftOf(f.sectionId)?.paragraphs ?? []) as { sentences: { repaired?: boolean }[] }[];
    if (paragraphs[f.paragraph]?.sentences[f.sentence]?.repaired) figures.repaired++;
  }
  const framed = (frame?.verification as FrameFigures | null)?.figures;
  if (framed) for (const k of Object.keys(figures) as (keyof typeof figures)[]) figures[k] += framed[k] ?? 0;
  return { ...figures, rounds };
}
