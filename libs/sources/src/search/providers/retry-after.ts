// Moved to @dossier/errors (shared with the LLM engine); kept here so the providers' imports stay put.
export { backoffMs, parseRetryAfter } from '@dossier/errors';
