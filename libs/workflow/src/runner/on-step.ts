import { Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import type { NodeName, NodeNameOf, NodeRows, NodeTable } from '@dossier/contracts';
import { STEP_HANDLER_METADATA } from '@dossier/queue';
import type { StepHandler, TableStepHandler } from './step-handler';

type ClassOf<H> = abstract new (...args: never[]) => H;

/**
 * Declares a provider as the handler of one workflow node. The decorator accepts only a class implementing the
 * handler of that node (`@OnStep('claims')` on a `StepHandler<'coverage'>` does not compile), so the node's job
 * and result types reach the handler from the node table. Handlers are discovered at boot; a service that owns a
 * node with no handler, or with two, refuses to start. `table`: for a node of an extended table (tests).
 */
export function OnStep<N extends NodeName>(node: N): <C extends ClassOf<StepHandler<N>>>(target: C) => void;
export function OnStep<R extends NodeRows, N extends NodeNameOf<R>>(
  node: N,
  table: NodeTable<R>,
): <C extends ClassOf<TableStepHandler<R, N>>>(target: C) => void;
export function OnStep(node: string): (target: ClassOf<unknown>) => void {
  const decorate = applyDecorators(Injectable(), SetMetadata(STEP_HANDLER_METADATA, node));
  return (target) => {
    decorate(target as unknown as new () => unknown);
  };
}

/**
 * The handler of `node` among those found at boot. The one cast between discovery and the typed handler: every
 * entry was registered under the node its `@OnStep(node)` named, and that decorator only accepts a
 * `StepHandler<node>` (the registry also checked at boot that each has an `execute` method).
 */
export function handlerFor<N extends NodeName>(handlers: ReadonlyMap<NodeName, object>, node: N): StepHandler<N> | undefined {
  return handlers.get(node) as StepHandler<N> | undefined;
}
