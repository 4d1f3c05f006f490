import path from 'node:path';
import { startTelemetry } from '@dossier/telemetry';

// Imported first by main.ts; loggers are created as modules load, so this is set before any of them. stdout carries
// what a command prints (a report piped to a file, the MCP protocol of `dossier mcp`), so logs never go there. The
// terminal shows them only when asked for (LOG_LEVEL set, or LOG_DESTINATION=stderr): otherwise a JSON line appeared
// among the progress lines (issue 28), so they go, at info, to .dossier/dossier.log beside the vector store (0095).
if (process.env['LOG_LEVEL'] === undefined && process.env['LOG_DESTINATION'] === undefined) {
  process.env['LOG_DESTINATION'] = path.resolve('.dossier', 'dossier.log');
  process.env['LOG_LEVEL'] = 'info';
}
process.env['LOG_DESTINATION'] ??= 'stderr';

/**
 * Starts tracing when a command opens its transport (build-program.ts), before the transport loads pg, ioredis and
 * http, which instrumentation must patch before they are loaded. `--help`, usage errors and commands that need no
 * transport never load the SDK (issue 28: the CLI answers fast).
 */
export function startCliTelemetry(): void {
  startTelemetry('cli');
}
