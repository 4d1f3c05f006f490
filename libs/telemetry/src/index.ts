export * from './start-telemetry';
export * from './log-context';
export * from './logger';
export * from './trace-carrier';
export * from './metrics';
export * from './llm-span';
// Admission to a rate-limited resource (model endpoints, search providers, the gateway's per-tenant and failed-login
// limits): here, in the util layer, so agents, capabilities and apps may all import it (issue 26).
export { type RateLimiter, type RateLimitOptions, RateLimitOptionsSchema } from './rate-limit/rate-limiter';
export { InProcessRateLimiter } from './rate-limit/in-process-rate-limiter';
export { RedisRateLimiter, type RedisRateLimitOptions, GCRA_SCRIPT } from './rate-limit/redis-rate-limiter';
export { sleep } from './rate-limit/sleep';
