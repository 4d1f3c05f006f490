// Writes of a run's research tables, one file per table (issue 26, decision 0093). Each takes the step's (or the gate's)
// transaction as `tx`: the stages return their writes and the runner commits them with the step (decision 0071).
export * from './objectives';
export * from './perspectives';
export * from './questions';
export * from './search-plans';
export * from './source-records';
export * from './evidence';
export * from './claims';
export * from './contradictions';
export * from './coverage';
export * from './interview-turns';
export * from './outline';
export * from './drafts';
export * from './findings';
export * from './frames';
