/**
 * The metadata key under which a provider names the node it handles. Set by `@OnStep(node)` (libs/workflow, where
 * the handler's types live); read here at boot, to build the node → handler registry.
 */
export const STEP_HANDLER_METADATA = 'dossier:step-handler';
