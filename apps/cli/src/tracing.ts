import { startTelemetry } from '@dossier/telemetry';

// Imported first by main.ts. Logs go to stderr: stdout carries what a command prints (a report piped to a file, the MCP
// protocol of `dossier mcp`), and loggers are created as modules load, so this is set before any other import.
process.env['LOG_DESTINATION'] ??= 'stderr';

/**
 * Starts tracing when a command opens its transport (build-program.ts), before the transport loads pg, ioredis and
 * http, which instrumentation must patch before they are loaded. `--help`, usage errors and commands that need no
 * transport never load the SDK (issue 28: the CLI answers fast).
 */
export function startCliTelemetry(): void {
  startTelemetry('cli');
}
