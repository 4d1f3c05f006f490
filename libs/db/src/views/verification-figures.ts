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
  /**
   * Sentences in the report outside its method section, and those of them supported by the passages they cite (decision
   * 0086): the report's own figures, null while the run has no report.
   */
  sentences: number | null;
  supported: number | null;
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
  figures?: Omit<RunVerificationFigures, 'rounds' | 'sentences' | 'supported'>;
}

/** The figures a rendered report printed (report.json `metrics.verification`), and its sentences counted. */
interface ReportFigures {
  verification: Partial<Record<keyof RunVerificationFigures, unknown>> | null;
  sentences: number;
  supported: number;
}

/**
 * The one source of a run's verification figures (decision 0086): the report's method section, its PDF cover, its
 * metrics, the publish gate, the runs API and the web app all show what this returns. Checks are counted from the run's
 * findings — those of the body (verify/repair rounds) and of its latest frame (framing, disagreements, redrafts). Once
 * the report is rendered, its sentences and supported sentences are the report's own, and every figure is the one the
 * report printed, so the run's view never says other than its report.
 */
export async function verificationFigures(db: Db, tenantId: string, runId: string): Promise<RunVerificationFigures> {
  const [checks, report] = await Promise.all([checkFigures(db, tenantId, runId), reportFigures(db, tenantId, runId)]);
  if (!report) return { ...checks, sentences: null, supported: null };
  const stored = report.verification ?? {};
  const figure = (k: keyof RunVerificationFigures, fallback: number): number => {
    const v = stored[k];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : fallback;
  };
  const out = { ...checks, sentences: report.sentences, supported: report.supported };
  for (const k of Object.keys(out) as (keyof RunVerificationFigures)[]) out[k] = figure(k, out[k] ?? 0);
  return out;
}

async function reportFigures(db: Db, tenantId: string, runId: string): Promise<ReportFigures | null> {
  // Reports written before these figures were stored are counted here: every sentence outside the method section, and
  // those citing evidence (only sentences that passed verification reach a report).
  const rows = await db.$queryRaw<ReportFigures[]>`
    SELECT r.j -> 'metrics' -> 'verification' AS verification,
      (SELECT count(*)::int FROM jsonb_array_elements(r.j -> 'sections') s, jsonb_array_elements(s -> 'paragraphs') p,
        jsonb_array_elements(p -> 'sentences') x WHERE s ->> 'kind' <> 'method') AS sentences,
      (SELECT count(*)::int FROM jsonb_array_elements(r.j -> 'sections') s, jsonb_array_elements(s -> 'paragraphs') p,
        jsonb_array_elements(p -> 'sentences') x
        WHERE s ->> 'kind' <> 'method' AND jsonb_array_length(COALESCE(x -> 'evidenceIds', '[]'::jsonb)) > 0) AS supported
    FROM report_artifacts a, LATERAL (SELECT a.content::jsonb AS j) r
    WHERE a.tenant_id = ${tenantId}::uuid AND a.run_id = ${runId}::uuid AND a.format = 'json'`;
  return rows[0] ?? null;
}

/** What the run's verification findings and frames say: the checks, failures, repairs and removals, and the rounds. */
async function checkFigures(db: Db, tenantId: string, runId: string): Promise<Omit<RunVerificationFigures, 'sentences' | 'supported'>> {
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
