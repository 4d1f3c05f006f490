import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ApiErrorBody } from '@dossier/contracts';
import { Prisma } from '@dossier/db';
import {
  DossierError,
  GateNotOpenError,
  RunArchiveError,
  RunArchiveTooLargeError,
  RunNotFoundError,
  RunStateError,
  TenantLimitError,
  ValidationError,
  describeError,
  redactDeep,
  redactSecrets,
  isTransient,
} from '@dossier/errors';
import { createLogger } from '@dossier/telemetry';
import {
  AuthenticationError,
  ConflictError,
  ForbiddenError,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  PolicyViolationError,
  RateLimitedError,
  ShareGoneError,
  UnsupportedMediaTypeError,
} from './http-errors';
import { clip } from './clip';

const logger = createLogger('gateway');

export interface Mapped {
  status: number;
  body: ApiErrorBody;
  headers?: Record<string, string>;
}

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  410: 'gone',
  411: 'length_required',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
  431: 'header_fields_too_large',
};

/** Longest message an error answer carries: a message may quote the request (a URL, a header), which the client sent itself. */
export const MAX_ERROR_MESSAGE_CHARS = 1_000;

function dossierStatus(err: DossierError): number | undefined {
  if (err instanceof ValidationError) return 400;
  if (err instanceof AuthenticationError) return 401;
  if (err instanceof ForbiddenError) return 403;
  if (err instanceof NotFoundError || err instanceof RunNotFoundError) return 404;
  if (err instanceof MethodNotAllowedError) return 405;
  if (err instanceof NotAcceptableError) return 406;
  if (err instanceof UnsupportedMediaTypeError) return 415;
  if (err instanceof ShareGoneError) return 410;
  if (err instanceof GateNotOpenError || err instanceof RunStateError || err instanceof ConflictError) return 409;
  if (err instanceof RunArchiveTooLargeError) return 413;
  if (err instanceof PolicyViolationError || err instanceof RunArchiveError) return 422;
  if (err instanceof RateLimitedError || err instanceof TenantLimitError) return 429;
  if (err.retryable) return 503;
  return undefined;
}

/**
 * One place that turns any error into `{ error, message, details }` with the right status: our typed errors,
 * Nest's, Fastify's own (body too large, malformed JSON, URL too long, unsupported media type) and anything
 * unexpected (a 500 that says nothing more; the text goes to the log). Messages are cut short and, with the
 * details, redacted: nothing a handler threw can carry a secret or megabytes of echoed input to the client.
 */
export function mapError(err: unknown): Mapped {
  const mapped = mapUnbounded(err);
  return {
    ...mapped,
    body: {
      error: mapped.body.error,
      message: clip(redactSecrets(mapped.body.message), MAX_ERROR_MESSAGE_CHARS),
      details: redactDeep(mapped.body.details),
    },
  };
}

function mapUnbounded(err: unknown): Mapped {
  if (err instanceof DossierError) {
    const status = dossierStatus(err);
    if (status !== undefined) {
      return {
        status,
        // One code for anything missing (a run, an approval, a source): the engine's use cases throw RunNotFoundError.
        body: { error: err instanceof RunNotFoundError ? 'not_found' : err.code, message: err.message, details: err.details ?? null },
        ...(err instanceof RateLimitedError || err instanceof TenantLimitError
          ? { headers: { 'retry-after': String(err.retryAfterSeconds) } }
          : {}),
        ...(err instanceof AuthenticationError ? { headers: { 'www-authenticate': 'Bearer realm="dossier"' } } : {}),
      };
    }
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const message = status === 404 ? 'No such endpoint' : err.message;
    return { status, body: { error: STATUS_CODES[status] ?? 'http_error', message, details: null } };
  }
  // Fastify's own errors (body parsing, size limit, content type, URL) carry a 4xx statusCode and an FST_ code.
  const fst = err as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof fst.statusCode === 'number' && fst.statusCode >= 400 && fst.statusCode < 500) {
    return {
      status: fst.statusCode,
      body: {
        error: STATUS_CODES[fst.statusCode] ?? 'bad_request',
        message: String(fst.message ?? 'Bad request'),
        details: typeof fst.code === 'string' ? { code: fst.code } : null,
      },
    };
  }
  if (err instanceof SyntaxError)
    return { status: 400, body: { error: 'bad_request', message: `Malformed body: ${err.message}`, details: null } };
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
    return {
      status: 409,
      body: {
        error: 'conflict',
        message: 'A resource with that identity already exists',
        details: { target: err.meta?.['target'] ?? null },
      },
    };
  }
  if (isTransient(err)) {
    // Postgres or Redis is down or restarting, or the database gave up on a conflict or a slow transaction: nothing
    // was committed, nothing is wrong with the request, and it may well succeed in a moment.
    logger.warn({ err: describeError(err) }, 'a dependency is unavailable or overloaded; answered 503');
    return {
      status: 503,
      body: {
        error: 'service_unavailable',
        message: 'The service cannot use its database or queue right now; try again shortly',
        details: null,
      },
      headers: { 'retry-after': '2' },
    };
  }
  const described = describeError(err);
  logger.error({ err: described }, `unhandled error: ${described.message}`);
  return { status: 500, body: { error: 'internal_error', message: 'Internal error', details: null } };
}

/** Sends a mapped error on a Fastify reply (hooks, the router's and Fastify's error handlers, the exception filter). */
export function sendError(reply: FastifyReply, err: unknown): void {
  const mapped = mapError(err);
  for (const [k, v] of Object.entries(mapped.headers ?? {})) void reply.header(k, v);
  void reply.status(mapped.status).type('application/json; charset=utf-8').send(mapped.body);
}

@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    // An SSE stream already sent its headers: nothing can be said any more but closing it.
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    sendError(reply, exception);
  }
}
