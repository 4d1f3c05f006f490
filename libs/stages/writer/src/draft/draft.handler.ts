import { AgentRunner, sectionWriter } from '@dossier/agents';
import { insertDrafts, ResearchRepository } from '@dossier/db';
import { OnStep, type StepContext, type StepHandler, type StepOutcome } from '@dossier/workflow';
import { sectionInputs } from '../section-inputs';

/** Section Writer for one outline section (one shard): every sentence cites evidence ids. */
@OnStep('draft')
export class DraftHandler implements StepHandler<'draft'> {
  constructor(
    private readonly agents: AgentRunner,
    private readonly research: ResearchRepository,
  ) {}

  async execute(ctx: StepContext<'draft'>): Promise<StepOutcome<'draft'>> {
    const { tenantId, runId } = ctx;
    const { section, claims, evidence, contested, voiceOf } = await sectionInputs(this.research, tenantId, runId, ctx.job.shard);
    const out = await this.agents.run(
      sectionWriter,
      {
        section: { title: section.title, purpose: section.purpose },
        claims: claims.map((c) => ({ id: c.id, statement: c.statement, evidenceIds: c.evidenceIds })),
        evidence: evidence.map((e) => {
          const voice = voiceOf(e.snapshotId);
          return { id: e.id, excerpt: e.excerpt, sourceId: e.snapshotId, start: e.start, ...(voice ? { voice } : {}) };
        }),
        ...(contested.length > 0 ? { contested } : {}),
      },
      ctx.call,
    );
    return {
      result: { sentences: out.paragraphs.reduce((n, p) => n + p.sentences.length, 0) },
      write: async (tx) => {
        await insertDrafts(tx, [{ tenantId, runId, sectionId: section.id, round: 0, paragraphs: out.paragraphs }]);
      },
    };
  }
}
