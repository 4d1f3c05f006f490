import { claimBuilder } from './claim-builder';
import { counterEvidence } from './counter-evidence';
import { coverageAssessor } from './coverage-assessor';
import { director } from './director';
import { evidenceCurator } from './evidence-curator';
import { framer } from './framer';
import { interviewAnalyst } from './interview-analyst';
import { interviewExpert } from './interview-expert';
import { moderator } from './moderator';
import { outlineArchitect } from './outline-architect';
import { perspectivePlanner } from './perspective-planner';
import { queryPlanner } from './query-planner';
import { questionArchitect } from './question-architect';
import { repairer } from './repairer';
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
export * from './interview-analyst';
export * from './interview-expert';

/**
 * Every role, once: its name, temperature, schemas and prompt are in its own file. The names, the registry by
 * name and the per-role model settings (`OPENAI_MODEL_<ROLE>`, `OPENAI_TEMPERATURE_<ROLE>`) derive from this list;
 * the node table (libs/contracts) names the roles each node uses, checked against it in tests.
 */
const ROLE_LIST = [
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
  interviewAnalyst,
  interviewExpert,
] as const;

type Role = (typeof ROLE_LIST)[number];
export type RoleName = Role['name'];
export const ROLE_NAMES: readonly RoleName[] = ROLE_LIST.map((r) => r.name);

/** Every role by name. */
export const ROLES = Object.freeze(Object.fromEntries(ROLE_LIST.map((r) => [r.name, r]))) as { readonly [R in Role as R['name']]: R };
