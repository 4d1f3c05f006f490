import { startTelemetry } from '@dossier/telemetry';

// Imported first by main.ts: instrumentation must patch pg, ioredis and http before they are loaded. Logs go to
// stderr: stdout carries what a command prints (a report piped to a file, the MCP protocol of `dossier mcp`), and
// loggers are created as modules load, so this is set before any other import.
process.env['LOG_DESTINATION'] ??= 'stderr';
startTelemetry('cli');
