import { Module } from '@nestjs/common';
import { AgentsModule } from '@dossier/agents';
import { PrismaAgentStore, RecordedExternalAnswers } from '@dossier/agent-store';
import { REDIS } from '@dossier/queue';
import { BudgetMarks } from '@dossier/workflow';
import { DraftHandler } from './draft/draft.handler';
import { FrameHandler } from './frame/frame.handler';
import { Redrafter } from './frame/redraft';
import { OutlineHandler } from './outline/outline.handler';
import { RepairHandler } from './repair/repair.handler';

/** The writer service's nodes: outline, draft (fan-out per section), repair, frame. */
@Module({
  imports: [AgentsModule.forPipeline({ redis: REDIS, budgetSink: BudgetMarks, store: PrismaAgentStore, answers: RecordedExternalAnswers })],
  controllers: [OutlineHandler, DraftHandler, RepairHandler, FrameHandler],
  providers: [Redrafter],
})
export class WriterStagesModule {}
