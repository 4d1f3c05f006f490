import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { ExternalAnswers, ExternalCall } from '@dossier/agents';
import { recordAnswer, recorded, replayedAnswer } from '@dossier/db';

/**
 * The agents' ExternalAnswers port over the run's recording (decision 0030). The recording is ambient — the step
 * runner opens a recording scope around each handler — so one instance serves every run of the process: a worker
 * lends it through `AgentsModule.forPipeline({ answers: RecordedExternalAnswers, … })`, a test or a CLI path passes
 * it to `new AgentRunner(store, { answers })` or to the embedder. Outside a step every call goes live, unrecorded.
 */
@Injectable()
export class RecordedExternalAnswers implements ExternalAnswers {
  replayed<T>(call: ExternalCall, schema: z.ZodType<T>): Promise<{ answer: T } | null> {
    return replayedAnswer(call, schema);
  }

  record(call: ExternalCall, answer: unknown): Promise<void> {
    return recordAnswer(call, answer);
  }

  recorded<T>(call: ExternalCall, schema: z.ZodType<T>, live: () => Promise<T>): Promise<T> {
    return recorded(call, schema, live);
  }
}
