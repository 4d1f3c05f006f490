import { SetMetadata, applyDecorators, Injectable } from '@nestjs/common';
import type { NodeName } from '@dossier/contracts';

export const STEP_HANDLER_METADATA = 'dossier:step-handler';

/**
 * Declares a provider as the handler of one workflow node. Handlers are discovered at boot; a service
 * that owns a node with no handler, or with two, refuses to start.
 */
export function OnStep(node: NodeName): ClassDecorator {
  return applyDecorators(Injectable(), SetMetadata(STEP_HANDLER_METADATA, node));
}
