import { BaseRpcContext } from '@nestjs/microservices';
import type { Job } from 'bullmq';
import type { JobControl, StepProcessor } from './step-processor';

/**
 * What a step handler's Nest pipeline (interceptors, pipes, filters, the handler) is given beside the job's data:
 * the BullMQ job, the control the step runner needs over it (attempt, postpone), and the runner itself.
 */
export class StepRpcContext extends BaseRpcContext<[Job, JobControl, StepProcessor]> {
  get job(): Job {
    return this.args[0];
  }

  get control(): JobControl {
    return this.args[1];
  }

  get processor(): StepProcessor {
    return this.args[2];
  }
}
