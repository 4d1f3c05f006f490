import { Controller, UseFilters, UseInterceptors } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { NODES, type NodeName, type NodeNameOf, type NodeRows, type NodeTable, type StepJob } from '@dossier/contracts';
import { STEP_HANDLER_EXTRAS, type StepHandlerExtras, type StepRpcContext } from '@dossier/queue';
import type { StepHandler, TableStepHandler } from './step-handler';
import { StepErrorFilter } from './step-error.filter';
import { StepJobPipe } from './step-job.pipe';
import { StepSpanInterceptor } from './step-span.interceptor';
import type { StepRunner, StepRunResult } from './step-runner';

type ClassOf<H> = abstract new (...args: never[]) => H;

/** The message handler `@OnStep` adds to a handler class: Nest's pipeline calls it with the piped job. */
export const STEP_METHOD = 'handleStep';

/**
 * Declares a class as the handler of one workflow node: a Nest controller whose message pattern is the node name, served
 * by the BullMQ transport (docs/decisions/0035). The decorator accepts only a class implementing the handler of that
 * node (`@OnStep('claims')` on a `StepHandler<'coverage'>` does not compile), so the node's job and result types reach
 * the handler from the node table. It adds the message handler (`handleStep`) that gives the step runner the
 * handler's `execute`, with the pipeline every step goes through: the span interceptor, the job pipe (the node's zod
 * job schema) and the error filter. A service that owns a node with no handler, or with two, refuses to start.
 * `table`: for a node of an extended table (tests). List handlers as `controllers` of their module.
 */
export function OnStep<N extends NodeName>(node: N): <C extends ClassOf<StepHandler<N>>>(target: C) => void;
export function OnStep<R extends NodeRows, N extends NodeNameOf<R>>(
  node: N,
  table: NodeTable<R>,
): <C extends ClassOf<TableStepHandler<R, N>>>(target: C) => void;
export function OnStep(
  node: string,
  table: NodeTable<NodeRows> = NODES as unknown as NodeTable<NodeRows>,
): (target: ClassOf<unknown>) => void {
  return (target) => {
    const prototype = target.prototype as { execute: StepHandler['execute'] };
    // A function per class: Nest keeps a pattern's metadata on the function itself.
    const handleStep = function (this: typeof prototype, job: StepJob, rpc: StepRpcContext): Promise<StepRunResult> {
      // The transport's processor is the step runner (WorkflowModule provides STEP_PROCESSOR as StepRunner).
      return (rpc.processor as StepRunner).run(job, rpc.control, (ctx) => this.execute(ctx));
    };
    const descriptor: PropertyDescriptor = { value: handleStep, writable: true, configurable: true };
    Object.defineProperty(prototype, STEP_METHOD, descriptor);
    // The class, not its name: a class renamed after decoration (test handlers) is named by its final name.
    const extras: StepHandlerExtras = { target };
    Controller()(target as unknown as new () => unknown);
    MessagePattern(node, { [STEP_HANDLER_EXTRAS]: extras })(prototype, STEP_METHOD, descriptor);
    Payload(new StepJobPipe(node, table))(prototype, STEP_METHOD, 0);
    Ctx()(prototype, STEP_METHOD, 1);
    UseInterceptors(new StepSpanInterceptor())(target as unknown as new () => unknown);
    UseFilters(new StepErrorFilter())(target as unknown as new () => unknown);
  };
}
