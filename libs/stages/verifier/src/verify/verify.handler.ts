import { AgentRunner, verifier } from '@dossier/agents';
import { ResearchRepository } from '@dossier/db';
import { StageStateError } from '@dossier/errors';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';

interface Sentence {
  text: string;
  evidenceIds: string[];
}

/**
 * Verifier for one section (one shard) in repair round k: every sentence is checked against the excerpts
 * it cites, independently of the writer. One finding per sentence.
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
    const evidence = new Map(
      (await this.research.evidence(tenantId, runId, { id: { in: flat.flatMap((s) => s.evidenceIds) } })).map((e) => [e.id, e]),
    );
    const out = await this.agents.run(
      verifier,
      {
        sentences: flat.map((s) => ({
          text: s.text,
          evidence: s.evidenceIds.flatMap((id) => {
            const e = evidence.get(id);
            return e ? [{ id, excerpt: e.excerpt }] : [];
          }),
        })),
      },
      ctx.call,
    );
    const failing = out.findings.filter((f) => f.verdict !== 'supported').length;
    return {
      result: { checked: flat.length, failing },
      write: async (tx) => {
        await tx.verificationFinding.createMany({
          data: out.findings.map((f, i) => ({
            tenantId,
            runId,
            sectionId: section.id,
            round,
            paragraph: flat[i]!.pi,
            sentence: flat[i]!.si,
            verdict: f.verdict,
            score: f.score,
            note: f.note,
          })),
          skipDuplicates: true,
        });
      },
    };
  }
}
