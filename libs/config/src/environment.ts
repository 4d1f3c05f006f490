/**
 * The process's environment: the one place outside app entry points, tracing setup and libs/testing that reads
 * `process.env` (a lint rule forbids it elsewhere, issue 26). It returns the live object, not a copy: telemetry
 * fills in OTEL_* defaults the SDK then reads, and the CLI sets LOG_DESTINATION before anything logs. Callers parse
 * it with the schemas declared here (loadConfig, or a group's own parser) rather than reading names one by one.
 */
export function environment(): NodeJS.ProcessEnv {
  return process.env;
}
