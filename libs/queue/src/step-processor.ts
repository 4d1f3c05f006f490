import type { StepJob } from '@dossier/contracts';

/** What the queue layer lets the step runner do with the job it is running. */
export interface JobControl {
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Puts the job back, to run again after `ms`, without spending an attempt. Throw what it returns. */
  postpone(ms: number): Promise<Error>;
}

/** Implemented by the workflow's step runner; the queue layer hands it every job it receives. */
export interface StepProcessor {
  process(payload: unknown, handlers: ReadonlyMap<StepJob['node'], object>, control: JobControl): Promise<unknown>;
}

export const STEP_PROCESSOR = Symbol('STEP_PROCESSOR');
