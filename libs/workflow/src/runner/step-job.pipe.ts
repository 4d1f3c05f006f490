import type { PipeTransform } from '@nestjs/common';
import type { NodeRows, NodeTable, StepJobFor } from '@dossier/contracts';
import { InvalidStepPayloadError } from '@dossier/errors';
import { z } from 'zod';

const PayloadIds = z.object({ tenantId: z.uuid(), runId: z.uuid() });

/**
 * The zod boundary of a step handler (a Nest pipe on its message handler): the job as it came off the queue must
 * be a step job of the handler's own node, in the node table the handler was declared with. A refused job is an
 * unrecoverable `InvalidStepPayloadError` carrying the run id when the payload names one; the step error filter
 * fails that run with the reason, and the transport never retries it.
 */
export class StepJobPipe<R extends NodeRows> implements PipeTransform<unknown, StepJobFor<R, Extract<keyof R, string>>> {
  constructor(
    private readonly node: string,
    private readonly table: NodeTable<R>,
  ) {}

  transform(value: unknown): StepJobFor<R, Extract<keyof R, string>> {
    const parsed = this.table.stepJob.safeParse(value);
    if (parsed.success && parsed.data.node === this.node) return parsed.data;
    const given = (value as { node?: unknown } | null)?.node;
    const reason = parsed.success
      ? `node "${String(given)}" delivered to the handler of "${this.node}"`
      : typeof given === 'string' && !this.table.has(given)
        ? `unknown node "${given}"`
        : parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');
    const ids = PayloadIds.safeParse(value);
    throw new InvalidStepPayloadError(`Invalid step job: ${reason}`, ids.success ? { runId: ids.data.runId } : {});
  }
}
