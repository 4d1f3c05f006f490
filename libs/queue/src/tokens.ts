/** The shared ioredis connection (producers, checks). Workers open their own blocking connections. */
export const REDIS = Symbol('REDIS');
