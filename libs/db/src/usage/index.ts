// A run's model calls and what they cost: the agents' ledger rows and the report's usage reads (issue 26, decision 0093).
export * from './budget-reservation';
export * from './llm-calls';
export * from './run-usage';
export * from './run-settings';
