import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REPORT_CSP } from '@dossier/render';
import { BULL_BOARD_PATH } from '../admin/bull-board';
import { API_ROUTES, routerPath } from '../docs/api-routes';
import { sendError } from './api-error.filter';
import { UnsupportedMediaTypeError } from './http-errors';

/**
 * The Content-Security-Policy of every response the gateway serves: the report's own policy (no scripts, no
 * external anything; inline styles and data: images only), plus what only a header can say (no framing) and
 * no `<base>` or form targets. JSON answers carry it too: an API response opened in a browser is inert.
 */
export const GATEWAY_CSP = `${REPORT_CSP}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** bull-board is a script application served from its own path: scripts, styles and API calls from this origin only. */
export const ADMIN_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/**
 * Security headers on a raw response. Set with `setHeader` so they reach every response: Fastify merges them into
 * what it sends (errors and 404s included), and hijacked responses (the SSE stream) write them with their own head.
 */
export function applySecurityHeaders(res: ServerResponse, url: string | undefined): void {
  if (res.headersSent) return;
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('content-security-policy', (url ?? '').startsWith(BULL_BOARD_PATH) ? ADMIN_CSP : GATEWAY_CSP);
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'no-referrer');
}

/** Routes that also take `multipart/form-data`, as the route table (and so the OpenAPI document) says; every other body is JSON. */
export const MULTIPART_ROUTES: ReadonlySet<string> = new Set(API_ROUTES.filter((r) => r.multipart).map((r) => routerPath(r.path)));

function carriesBody(req: FastifyRequest): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

/**
 * Refuses, with a 415 before any parser or handler runs, a request body that is not JSON (or multipart on the
 * routes that document it). Fastify would otherwise accept whatever a registered parser understands (the
 * multipart plugin registers one for every route).
 */
export function checkContentType(req: FastifyRequest): UnsupportedMediaTypeError | undefined {
  if (!carriesBody(req)) return undefined;
  const type = mediaType(req.headers['content-type']);
  if (type === 'application/json') return undefined;
  const route = req.routeOptions.url;
  const multipart = route !== undefined && MULTIPART_ROUTES.has(route);
  if (type === 'multipart/form-data' && multipart) return undefined;
  const allowed = multipart ? ['application/json', 'multipart/form-data'] : ['application/json'];
  return new UnsupportedMediaTypeError(
    `${type ? `Content-Type ${JSON.stringify(type.slice(0, 100))} is` : 'A body without a Content-Type is'} not accepted here: send ${allowed.join(' or ')}`,
    { details: { allowed, received: type?.slice(0, 100) ?? null } },
  );
}

/** Installs both on every route (and the 404 handler) of the gateway's Fastify instance. */
export function installHttpHardening(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (req, reply) => {
    applySecurityHeaders(reply.raw, req.url);
    const refused = checkContentType(req);
    if (refused) {
      sendError(reply, refused);
      return reply;
    }
    return undefined;
  });
}
