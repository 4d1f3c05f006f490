import { claimBuilder } from './claim-builder';
import { counterEvidence } from './counter-evidence';
import { coverageAssessor } from './coverage-assessor';
import { director } from './director';
import { evidenceCurator } from './evidence-curator';
import { framer } from './framer';
import { moderator } from './moderator';
import { outlineArchitect } from './outline-architect';
import { perspectivePlanner } from './perspective-planner';
import { queryPlanner } from './query-planner';
import { questionArchitect } from './question-architect';
import { repairer } from './repairer';
import type { RoleName } from './role';
import { sectionWriter } from './section-writer';
import { verifier } from './verifier';

export * from './role';
export * from './director';
export * from './perspective-planner';
export * from './question-architect';
export * from './query-planner';
export * from './evidence-curator';
export * from './claim-builder';
export * from './counter-evidence';
export * from './coverage-assessor';
export * from './moderator';
export * from './outline-architect';
export * from './section-writer';
export * from './verifier';
export * from './repairer';
export * from './framer';

/** Every role by name. */
export const ROLES = {
  director,
  perspectivePlanner,
  questionArchitect,
  queryPlanner,
  evidenceCurator,
  claimBuilder,
  counterEvidence,
  coverageAssessor,
  moderator,
  outlineArchitect,
  sectionWriter,
  verifier,
  repairer,
  framer,
} as const satisfies Record<RoleName, { name: RoleName }>;
