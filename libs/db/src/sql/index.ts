export * from './bindable-pool';
export * from './query-rows';
export * from './sql-transaction';
export { corkSocket } from './pipelined-transaction';
