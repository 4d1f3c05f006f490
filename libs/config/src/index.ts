export * from './load-config';
export * from './schemas';
export * from './ops-ports';
export * from './queue-prefix';
