/**
 * The offline engine's plays of the agent roles (docs/decisions/0088): one module per role, its heuristics apart from
 * the role's definition (name, schemas, prompt) in roles/<role>.ts. The registry (roles/index.ts) joins the two.
 */
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
