import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { PrismaAgentStore, RecordedExternalAnswers } from '@dossier/agent-store';
import { REDIS } from '@dossier/queue';
import { BudgetMarks } from '@dossier/workflow';
import { PerspectivesHandler } from './perspectives/perspectives.handler';
import { QuestionsHandler } from './questions/questions.handler';
import { ScopeHandler } from './scope/scope.handler';

/** The planner service's nodes: scope, perspectives, questions. */
@Module({
  imports: [AgentsModule.forPipeline({ redis: REDIS, budgetSink: BudgetMarks, store: PrismaAgentStore, answers: RecordedExternalAnswers })],
  controllers: [ScopeHandler, PerspectivesHandler, QuestionsHandler],
})
export class PlannerStagesModule {}
