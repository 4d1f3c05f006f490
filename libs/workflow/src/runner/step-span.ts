import { stepKey, type StepJob } from '@dossier/contracts';
import { linksFromCarriers, withLogContext, withStepSpan } from '@dossier/telemetry';

/**
 * Runs `fn` in the step's span (a child of the trace its job carries, linked to the spans of a join's shards) with
 * the run id, tenant and step key on every log line. Takes the payload as delivered: a job the pipe will refuse still
 * gets a span and a log context, with what can be read from it.
 */
export function inStepSpan<T>(payload: unknown, attempt: number, fn: () => Promise<T>): Promise<T> {
  const job = (typeof payload === 'object' && payload !== null ? payload : {}) as Partial<StepJob>;
  const named = typeof job.runId === 'string' && typeof job.node === 'string';
  const key = named && typeof job.iteration === 'number' && typeof job.shard === 'number' ? stepKey(job as StepJob) : undefined;
  const attributes = {
    ...(typeof job.runId === 'string' ? { 'dossier.run_id': job.runId } : {}),
    ...(typeof job.node === 'string' ? { 'dossier.node': job.node } : {}),
    ...(typeof job.iteration === 'number' ? { 'dossier.iteration': job.iteration } : {}),
    ...(typeof job.shard === 'number' ? { 'dossier.shard': job.shard } : {}),
    'dossier.attempt': attempt,
  };
  const context = {
    ...(typeof job.runId === 'string' ? { runId: job.runId } : {}),
    ...(typeof job.tenantId === 'string' ? { tenantId: job.tenantId } : {}),
    ...(key ? { stepKey: key } : {}),
  };
  const carrier = typeof job.trace === 'object' && job.trace !== null ? job.trace : undefined;
  const links = Array.isArray(job.links) ? linksFromCarriers(job.links) : undefined;
  return withLogContext(context, () =>
    withStepSpan(`step ${typeof job.node === 'string' ? job.node : 'invalid'}`, carrier, attributes, fn, links),
  );
}
