export * from './errors';
export * from './classify';
export type { DossierErrorOptions } from './dossier-error';
export { parseRetryAfter, backoffMs } from './retry-after';
export { REDACTED, configuredSecrets, redactDeep, redactSecrets, refreshConfiguredSecrets, registerSecret } from './redact';
