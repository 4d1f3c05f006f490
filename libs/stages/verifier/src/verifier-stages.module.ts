import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { PrismaAgentStore, RecordedExternalAnswers } from '@dossier/agent-store';
import { REDIS } from '@dossier/queue';
import { BudgetMarks } from '@dossier/workflow';
import { VerifyHandler } from './verify/verify.handler';

/** The verifier service's node: verify (fan-out per section, once per repair round). */
@Module({
  imports: [AgentsModule.forPipeline({ redis: REDIS, budgetSink: BudgetMarks, store: PrismaAgentStore, answers: RecordedExternalAnswers })],
  controllers: [VerifyHandler],
})
export class VerifierStagesModule {}
