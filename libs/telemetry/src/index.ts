export * from './start-telemetry';
export * from './log-context';
export * from './logger';
export * from './trace-carrier';
export * from './metrics';
export * from './llm-span';
