import { AgentRunner, verifySentences } from '@dossier/agents';
import { insertFindings, ResearchRepository, type Prisma } from '@dossier/db';
import { StageStateError } from '@dossier/errors';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

interface Sentence {
  text: string;
  evidenceIds: string[];
}

const key = (s: Sentence) => `${s.text}\u0000${[...s.evidenceIds].sort().join(',')}`;

/**
 * Verification of one section (one shard) in repair round k (decision 0020): every sentence is checked against the
 * excerpts it cites by the deterministic guard and by the verifier role, independently of the writer; it passes only
 * if both pass. A sentence that passed in the round before, unchanged, is carried over rather than judged again.
 */
@OnStep('verify')
export class VerifyHandler implements StepHandler<'verify'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'verify'>): Promise<StepOutcome<'verify'>> {
    const { tenantId, runId } = ctx;
    const round = ctx.job.iteration;
    const section = (await this.research.latestOutline(tenantId, runId))[ctx.job.shard];
    if (!section) throw new StageStateError(`The outline has no section ${ctx.job.shard}`, { runId });
    const draft = await this.research.latestDraft(tenantId, section.id, round);
    const paragraphs = (draft?.paragraphs ?? []) as unknown as { sentences: Sentence[] }[];
    const flat = paragraphs.flatMap((p, pi) => p.sentences.map((s, si) => ({ ...s, pi, si })));
    const passed = await this.passedBefore(tenantId, section.id, round);
    const fresh = flat.filter((s) => !passed.has(key(s)));
    const evidence = new Map(
      (await this.research.evidence(tenantId, runId, { id: { in: fresh.flatMap((s) => s.evidenceIds) } })).map((e) => [e.id, e]),
    );
    const checks = await verifySentences(
      this.agents,
      fresh.map((s) => ({
        text: s.text,
        evidenceIds: s.evidenceIds,
        evidence: s.evidenceIds.flatMap((id) => {
          const e = evidence.get(id);
          return e ? [{ id, excerpt: e.excerpt }] : [];
        }),
      })),
      ctx.call,
    );
    const checked = new Map(fresh.map((s, i) => [`${s.pi}.${s.si}`, checks[i]!]));
    const findings = flat.map((s) => {
      const c = checked.get(`${s.pi}.${s.si}`);
      if (!c)
        return {
          s,
          verdict: 'supported',
          score: passed.get(key(s))!,
          note: 'passed in the round before, unchanged',
          checks: { text: s.text, carried: true },
        };
      return {
        s,
        verdict: c.verdict,
        score: c.score,
        note: c.note,
        checks: { text: s.text, guard: c.guard, judge: c.judge, judgedBy: c.judgedBy },
      };
    });
    const failing = findings.filter((f) => f.verdict !== 'supported').length;
    return {
      result: { checked: flat.length, failing },
      write: async (tx) => {
        await insertFindings(
          tx,
          findings.map((f) => ({
            tenantId,
            runId,
            sectionId: section.id,
            round,
            paragraph: f.s.pi,
            sentence: f.s.si,
            verdict: f.verdict,
            score: f.score,
            note: f.note,
            checks: f.checks as unknown as Prisma.InputJsonValue,
          })),
        );
      },
    };
  }

  /** Sentences of the round before that passed, by text and citations, with their score. */
  private async passedBefore(tenantId: string, sectionId: string, round: number): Promise<Map<string, number>> {
    if (round === 0) return new Map();
    const [draft, findings] = await Promise.all([
      this.research.latestDraft(tenantId, sectionId, round - 1),
      this.research.findings(tenantId, sectionId, round - 1),
    ]);
    const paragraphs = (draft?.paragraphs ?? []) as unknown as { sentences: Sentence[] }[];
    const out = new Map<string, number>();
    for (const f of findings) {
      const s = paragraphs[f.paragraph]?.sentences[f.sentence];
      if (s && f.verdict === 'supported') out.set(key(s), f.score);
    }
    return out;
  }
}
