import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { PrismaAgentStore, RecordedExternalAnswers } from '@dossier/agent-store';
import { REDIS } from '@dossier/queue';
import { BudgetMarks } from '@dossier/workflow';
import { ExtractHandler } from './extract/extract.handler';

/** The extractor service's node: extract (fan-out per selected source). */
@Module({
  imports: [AgentsModule.forPipeline({ redis: REDIS, budgetSink: BudgetMarks, store: PrismaAgentStore, answers: RecordedExternalAnswers })],
  controllers: [ExtractHandler],
})
export class ExtractorStagesModule {}
