import {
  claimBuilderOffline,
  counterEvidenceOffline,
  coverageAssessorOffline,
  directorOffline,
  evidenceCuratorOffline,
  framerOffline,
  interviewAnalystOffline,
  interviewExpertOffline,
  moderatorOffline,
  outlineArchitectOffline,
  perspectivePlannerOffline,
  queryPlannerOffline,
  questionArchitectOffline,
  repairerOffline,
  sectionWriterOffline,
  verifierOffline,
} from '../offline/roles';
import { claimBuilderDefinition } from './claim-builder';
import { counterEvidenceDefinition } from './counter-evidence';
import { coverageAssessorDefinition } from './coverage-assessor';
import { directorDefinition } from './director';
import { evidenceCuratorDefinition } from './evidence-curator';
import { framerDefinition } from './framer';
import { interviewAnalystDefinition } from './interview-analyst';
import { interviewExpertDefinition } from './interview-expert';
import { moderatorDefinition } from './moderator';
import { outlineArchitectDefinition } from './outline-architect';
import { perspectivePlannerDefinition } from './perspective-planner';
import { queryPlannerDefinition } from './query-planner';
import { questionArchitectDefinition } from './question-architect';
import { repairerDefinition } from './repairer';
import { sectionWriterDefinition } from './section-writer';
import { verifierDefinition } from './verifier';
import { withOfflinePlay } from './role';

export * from './role';
// The offline plays' own exports (limits, catalogues) that callers and tests name.
export * from '../offline/roles';
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

/** Every role: its definition joined with its offline play (docs/decisions/0088). */
export const director = withOfflinePlay(directorDefinition, directorOffline);
export const perspectivePlanner = withOfflinePlay(perspectivePlannerDefinition, perspectivePlannerOffline);
export const questionArchitect = withOfflinePlay(questionArchitectDefinition, questionArchitectOffline);
export const queryPlanner = withOfflinePlay(queryPlannerDefinition, queryPlannerOffline);
export const evidenceCurator = withOfflinePlay(evidenceCuratorDefinition, evidenceCuratorOffline);
export const claimBuilder = withOfflinePlay(claimBuilderDefinition, claimBuilderOffline);
export const counterEvidence = withOfflinePlay(counterEvidenceDefinition, counterEvidenceOffline);
export const coverageAssessor = withOfflinePlay(coverageAssessorDefinition, coverageAssessorOffline);
export const moderator = withOfflinePlay(moderatorDefinition, moderatorOffline);
export const outlineArchitect = withOfflinePlay(outlineArchitectDefinition, outlineArchitectOffline);
export const sectionWriter = withOfflinePlay(sectionWriterDefinition, sectionWriterOffline);
export const verifier = withOfflinePlay(verifierDefinition, verifierOffline);
export const repairer = withOfflinePlay(repairerDefinition, repairerOffline);
export const framer = withOfflinePlay(framerDefinition, framerOffline);
export const interviewAnalyst = withOfflinePlay(interviewAnalystDefinition, interviewAnalystOffline);
export const interviewExpert = withOfflinePlay(interviewExpertDefinition, interviewExpertOffline);

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
