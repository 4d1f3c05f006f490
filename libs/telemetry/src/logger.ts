import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';
import type { LoggerService } from '@nestjs/common';
import { environment } from '@dossier/config';
import { redactSecrets } from '@dossier/errors';
import { currentLogContext } from './log-context';

export type { Logger };

/**
 * JSON logs on stdout, on stderr with `LOG_DESTINATION=stderr`, or appended to the file `LOG_DESTINATION` names
 * otherwise (the CLI: its stdout is the command's output, and for `dossier mcp` the MCP protocol itself; its terminal
 * shows logs only when LOG_LEVEL asks for them, decision 0095). Each line carries the run id and step key of the step being handled and the
 * active trace and span ids, so a log line leads to its trace. Known secret-bearing fields are redacted, and every
 * line passes through the shared secret redaction (@dossier/errors) on its way out: an error message that quotes an
 * upstream body, or a field nobody thought of, cannot put a configured key or a bearer token in the logs.
 */
export function createLogger(service: string, level = environment()['LOG_LEVEL'] ?? 'info'): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: ['*.password', '*.apiKey', '*.secret', '*.authorization', 'config.DATABASE_URL'], censor: '[redacted]' },
      hooks: { streamWrite: (line) => redactSecrets(line) },
      mixin() {
        const span = trace.getActiveSpan()?.spanContext();
        return { ...currentLogContext(), ...(span ? { trace_id: span.traceId, span_id: span.spanId } : {}) };
      },
    },
    logDestination(environment()['LOG_DESTINATION']),
  );
}

function logDestination(to: string | undefined) {
  if (to === 'stderr') return pino.destination(2);
  if (to === undefined || to === '' || to === 'stdout') return pino.destination(1);
  // Written as each line comes (a CLI exits with process.exit, which would lose a buffer); the folder is made if missing.
  return pino.destination({ dest: to, mkdir: true, sync: true });
}

/** Nest's own messages go through the same pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
