import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { PrismaAgentStore, RecordedExternalAnswers } from '@dossier/agent-store';
import { REDIS } from '@dossier/queue';
import { BudgetMarks } from '@dossier/workflow';
import { ClaimsHandler } from './claims/claims.handler';
import { ContradictionsHandler } from './contradictions/contradictions.handler';
import { CoverageHandler } from './coverage/coverage.handler';
import { InterventionApplier } from './moderate/apply-interventions';
import { ModerateHandler } from './moderate/moderate.handler';
import { RunEmbedder } from './embeddings/run-embedder';

/** The claims service's nodes: claims, contradictions, coverage, moderate. Needs VectorsModule.forRoot in the app. */
@Module({
  imports: [AgentsModule.forPipeline({ redis: REDIS, budgetSink: BudgetMarks, store: PrismaAgentStore, answers: RecordedExternalAnswers })],
  // Step handlers are the microservice's controllers (their message pattern is the node, decision 0035).
  controllers: [ClaimsHandler, ContradictionsHandler, CoverageHandler, ModerateHandler],
  providers: [InterventionApplier, RunEmbedder],
})
export class ClaimsStagesModule {}
