export * from './runs.module';
export * from './run-commands';
export * from './run-queries';
export * from './run-archives';
export * from './gate-edits';
export * from './run-views';
