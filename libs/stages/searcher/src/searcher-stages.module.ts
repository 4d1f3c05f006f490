import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { PrismaAgentStore, RecordedExternalAnswers } from '@dossier/agent-store';
import { REDIS } from '@dossier/queue';
import { BudgetMarks } from '@dossier/workflow';
import { SearchProviders } from './providers/search-providers';
import { WebFetcher } from './providers/web-fetcher';
import { InterviewHandler } from './interview/interview.handler';
import { RetrieveHandler } from './retrieve/retrieve.handler';
import { SearchPlanHandler } from './search-plan/search-plan.handler';
import { SourcePolicyHandler } from './source-policy/source-policy.handler';

/** The searcher service's nodes: search_plan, retrieve (fan-out per query), source_policy, interview (fan-out per analyst, a step per turn). */
@Module({
  imports: [AgentsModule.forPipeline({ redis: REDIS, budgetSink: BudgetMarks, store: PrismaAgentStore, answers: RecordedExternalAnswers })],
  controllers: [SearchPlanHandler, RetrieveHandler, SourcePolicyHandler, InterviewHandler],
  providers: [SearchProviders, WebFetcher],
})
export class SearcherStagesModule {}
