/** What the queue layer lets the step runner do with the job it is running. */
export interface JobControl {
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Puts the job back, to run again after `ms`, without spending an attempt. Throw what it returns. */
  postpone(ms: number): Promise<Error>;
}

/**
 * Implemented by the workflow's step runner. The transport hands each job to the handler of its node (a Nest
 * message handler, whose pipeline calls the runner); the runner is asked directly only about jobs no handler takes
 * and errors raised before the step ran.
 */
export interface StepProcessor {
  /** A job no handler of this process takes (unknown node, wrong queue): its run fails with `reason`, never retried. */
  reject(payload: unknown, reason: string): Promise<Error>;
  /**
   * An error the step runner did not see (a pipe refused the payload, an interceptor failed): recorded on the run
   * as the runner records its own (final: the run fails; otherwise a retry event). No-op for errors it recorded.
   */
  recordUnseen(payload: unknown, err: unknown, control: JobControl): Promise<void>;
}

export const STEP_PROCESSOR = Symbol('STEP_PROCESSOR');
