/**
 * The extras key under which a step handler's `@MessagePattern(node)` names its class (set by
 * `@OnStep(node)` in libs/workflow, where the handler's types live). The BullMQ transport reads it as Nest
 * registers each pattern, to check at boot that every owned node has exactly one handler.
 */
export const STEP_HANDLER_EXTRAS = 'dossierStepHandler';

export interface StepHandlerExtras {
  /** The handler's class (its name and `execute` are read at boot). */
  target: abstract new (...args: never[]) => unknown;
}
