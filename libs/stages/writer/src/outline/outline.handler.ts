import { AgentRunner, excerptContexts, MAX_CLAIMS_PER_SECTION, outlineArchitect, pagesNamedMostPrecisely } from '@dossier/agents';
import { insertOutline, ResearchRepository, type ClaimRow, type EvidenceRow, type InterviewTurnRow } from '@dossier/db';
import { InterviewAnswer } from '@dossier/contracts';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { claimTerms, contestedClaimIds, runDisputes } from '../frame/disagreements';
import { pointersBesideAntecedents } from './pointer-sections';

/** A section's claims, at most, whatever engine drew the outline: the offline architect's own limit. */
export const CLAIMS_PER_SECTION = MAX_CLAIMS_PER_SECTION;

const clipTitle = (t: string) => (t.length <= 400 ? t : `${t.slice(0, 399)}…`);

/** Outline Architect: sections with the claims each must use (one revision per outline-gate round). */
@OnStep('outline')
export class OutlineHandler implements StepHandler<'outline'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'outline'>): Promise<StepOutcome<'outline'>> {
    const { tenantId, runId } = ctx;
    const [questions, allClaims, evidence, contradictions, turns] = await Promise.all([
      this.research.questions(tenantId, runId),
      this.research.claims(tenantId, runId),
      this.research.evidence(tenantId, runId),
      this.research.contradictions(tenantId, runId),
      this.research.interviewTurns(tenantId, runId),
    ]);
    // Both sides of a contradiction (and their restatements) are presented together in "Where the sources
    // disagree", never as two findings side by side in the body: not in a survey section, not in an interview's.
    // The disputes the contradiction step did not pair count too (decision 0087).
    // Two claims about different terms of a manual are no dispute (0154): read from the sources' texts, loaded once here.
    const snapshots = await this.research.snapshots(tenantId, [...new Set(evidence.map((e) => e.snapshotId))]);
    const contested = contestedClaimIds(runDisputes(contradictions, allClaims, claimTerms(allClaims, evidence, snapshots)), allClaims);
    const uncontested = allClaims.filter((c) => !contested.has(c.id));
    const memos = await this.interviewSections(tenantId, runId, turns, uncontested);
    // Interviews mode has no plan questions and no survey claims: the architect arranges the memos (and applies a
    // reviewer's feedback to them). Hybrid: the survey's claims by theme, then the memos.
    const inMemos = new Set(memos.flatMap((s) => s.claimIds));
    const claims = ctx.run.options.mode === 'interviews' ? uncontested.filter((c) => inMemos.has(c.id)) : uncontested;
    // Sections answer the plan's questions; a follow-up the research loop asked counts for the question it follows up.
    const parentOf = new Map(questions.map((q) => [q.id, q.parentId]));
    const rootOf = (id: string | null): string | null => {
      const seen = new Set<string>();
      let at = id;
      while (at && parentOf.get(at) && !seen.has(at)) {
        seen.add(at);
        at = parentOf.get(at) ?? null;
      }
      return at;
    };
    const questionOf = new Map(evidence.map((e) => [e.id, rootOf(e.questionId)]));
    // An interview's questions are its memo's, not sub-questions of the plan.
    const interviewQuestions = new Set(turns.map((t) => t.questionId));
    const { contexts: contextOf, titles } = this.evidenceContexts(evidence, snapshots);
    // The pages the question names (decision 0131): the most precisely named, so git(1) is not one for "git reflog".
    const named = pagesNamedMostPrecisely([...new Set(titles.values())], ctx.run.question);
    const namedSnapshots = new Set([...titles].flatMap(([id, title]) => (named.has(title) ? [id] : [])));
    const evidenceById = new Map(evidence.map((e) => [e.id, e]));
    const out =
      claims.length === 0 && memos.length === 0
        ? { sections: [] }
        : await this.agents.run(
            outlineArchitect,
            {
              question: ctx.run.question,
              questions:
                ctx.run.options.mode === 'interviews'
                  ? []
                  : questions.filter((q) => q.parentId === null && !interviewQuestions.has(q.id)).map((q) => ({ id: q.id, text: q.text })),
              claims: claims.map((c) => {
                // The evidence the claim's statement was taken from (its lead), else its first.
                const lead = c.evidenceIds.find((id) => evidenceById.get(id)?.statement === c.statement) ?? c.evidenceIds[0];
                const around = lead === undefined ? undefined : contextOf.get(lead);
                return {
                  id: c.id,
                  statement: c.statement,
                  questionId: c.evidenceIds.map((e) => questionOf.get(e)).find((q) => q) ?? null,
                  sourceIds: [...new Set(c.evidenceIds.flatMap((id) => evidenceById.get(id)?.snapshotId ?? []))].slice(0, 50),
                  ...(around?.context ? { context: around.context.slice(0, 4000) } : {}),
                  ...(around?.defines ? { defines: around.defines.slice(0, 400) } : {}),
                  ...(around?.heading ? { heading: around.heading.slice(0, 400) } : {}),
                  ...(around?.heading && around.headingIsTitle ? { headingIsTitle: true } : {}),
                  ...(c.evidenceIds.some((id) => namedSnapshots.has(evidenceById.get(id)?.snapshotId ?? ''))
                    ? { fromNamedPage: true }
                    : {}),
                };
              }),
              ...(memos.length > 0 ? { memos } : {}),
              feedback: await ctx.rejectionFeedback(),
            },
            ctx.call,
          );
    const revision = ctx.job.iteration;
    // A section uses its best-supported claims (most evidence first, then the outline's order), at most
    // CLAIMS_PER_SECTION, so one broad topic cannot swallow the report.
    const evidenceCount = new Map(allClaims.map((c) => [c.id, c.evidenceIds.length]));
    const sections = out.sections.map((s) => ({
      ...s,
      claimIds: s.claimIds
        .map((id, i) => ({ id, i }))
        .sort((a, b) => (evidenceCount.get(b.id) ?? 0) - (evidenceCount.get(a.id) ?? 0) || a.i - b.i)
        .slice(0, CLAIMS_PER_SECTION)
        .sort((a, b) => a.i - b.i)
        .map((x) => x.id),
    }));
    // A claim whose excerpt points back stands in the section of what it points at, or the writer leaves it out (0146).
    const placed = pointersBesideAntecedents(sections, allClaims, evidence);
    return {
      result: { sections: placed.length },
      write: async (tx) => {
        await insertOutline(tx, tenantId, runId, revision, placed);
      },
    };
  }

  /**
   * What each evidence fragment stands under in its source (the label above it, the sentence before it), for the
   * offline architect to score a claim as the curator scored its sentence (docs/decisions/0039); and each source's title.
   */
  private evidenceContexts(
    evidence: readonly EvidenceRow[],
    snapshots: readonly { id: string; title: string; text: string }[],
  ): {
    contexts: Map<string, { context: string; defines: string | null; heading: string | null; headingIsTitle: boolean }>;
    titles: Map<string, string>;
  } {
    const bySnapshot = new Map<string, EvidenceRow[]>();
    for (const e of evidence) bySnapshot.set(e.snapshotId, [...(bySnapshot.get(e.snapshotId) ?? []), e]);
    const out = new Map<string, { context: string; defines: string | null; heading: string | null; headingIsTitle: boolean }>();
    const titles = new Map<string, string>();
    for (const snapshot of snapshots) {
      titles.set(snapshot.id, snapshot.title);
      const rows = bySnapshot.get(snapshot.id) ?? [];
      excerptContexts(snapshot.text, rows).forEach((context, i) => {
        const row = rows[i];
        if (row) out.set(row.id, context);
      });
    }
    return { contexts: out, titles };
  }

  /**
   * One section per interview (a memo), in the analyst's voice and focus: the uncontested claims resting on evidence
   * its expert cited. The
   * interviews search the same sources, so a claim is often backed by several: it goes to one of them (one sentence, one
   * place in the report), the one with the fewest claims so far, claims with fewer candidates placed first, so every
   * interview that found something has a section.
   */
  private async interviewSections(
    tenantId: string,
    runId: string,
    turns: readonly InterviewTurnRow[],
    claims: readonly ClaimRow[],
  ): Promise<{ title: string; purpose: string; claimIds: string[] }[]> {
    if (turns.length === 0) return [];
    const analysts = await this.research.latestPerspectives(tenantId, runId);
    const interviewed = analysts.map((_, shard) => shard).filter((shard) => turns.some((t) => t.shard === shard));
    const cited = new Map(
      interviewed.map((shard) => [
        shard,
        new Set(turns.filter((t) => t.shard === shard).flatMap((t) => InterviewAnswer.parse(t.answer).flatMap((s) => s.evidenceIds))),
      ]),
    );
    const candidates = claims
      .map((c, order) => ({ id: c.id, order, shards: interviewed.filter((shard) => c.evidenceIds.some((e) => cited.get(shard)!.has(e))) }))
      .filter((c) => c.shards.length > 0)
      .sort((a, b) => a.shards.length - b.shards.length || a.order - b.order);
    const placed = new Map<number, { id: string; order: number }[]>(interviewed.map((shard) => [shard, []]));
    for (const c of candidates) {
      const shard = c.shards.reduce((best, s) => (placed.get(s)!.length < placed.get(best)!.length ? s : best));
      placed.get(shard)!.push(c);
    }
    return interviewed.map((shard) => {
      const analyst = analysts[shard]!;
      return {
        title: clipTitle(`${analyst.name}, ${analyst.role}`),
        purpose:
          `Interview memo in the voice of ${analyst.name} (${analyst.role}${analyst.affiliation ? `, ${analyst.affiliation}` : ''}): ${analyst.focus}`.slice(
            0,
            2000,
          ),
        claimIds: placed
          .get(shard)!
          .sort((a, b) => a.order - b.order)
          .map((c) => c.id),
      };
    });
  }
}
