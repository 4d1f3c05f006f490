import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WEB_APP_HEADERS } from './web-headers';

/** Where `vite build` writes the app (apps/web/dist), relative to this file in the repository and the image. */
export const DEFAULT_WEB_DIR = path.resolve(__dirname, '../../../web/dist');

/** The app's client-side routes (apps/web/src/router.tsx): each answers with index.html. */
const APP_ROUTES = ['/', '/sign-in', '/runs', '/runs/*', '/shared'];

/** Paths that belong to the API or the operators, never to the app: their 404 stays the API's JSON. */
const NOT_APP_PATHS = /^\/(v1|mcp|docs|admin|assets|healthz|readyz)(\/|\?|$)/;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt']);

interface StaticFile {
  body: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  /** Vite puts a content hash in every name under assets/: those never change and may be cached for a year. */
  immutable: boolean;
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full, base) : [path.relative(base, full)];
  });
}

/** Every file of the build, read once at boot (the whole app is a few hundred kilobytes), gzipped ahead of time. */
function loadFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const rel of walk(dir)) {
    const ext = path.extname(rel).toLowerCase();
    const type = TYPES[ext];
    if (!type) continue;
    const body = readFileSync(path.join(dir, rel));
    const urlPath = `/${rel.split(path.sep).join('/')}`;
    files.set(urlPath, {
      body,
      ...(COMPRESSIBLE.has(ext) && body.length > 512 ? { gzip: gzipSync(body, { level: 9 }) } : {}),
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      immutable: urlPath.startsWith('/assets/'),
    });
  }
  return files;
}

function send(req: FastifyRequest, reply: FastifyReply, file: StaticFile, status = 200): FastifyReply {
  void reply
    .headers(WEB_APP_HEADERS)
    .header('content-type', file.type)
    .header('etag', file.etag)
    .header('vary', 'Accept-Encoding')
    .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (status === 200 && req.headers['if-none-match'] === file.etag) return reply.status(304).send();
  const gzip = file.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (gzip) void reply.header('content-encoding', 'gzip');
  return reply.status(status).send(gzip ? file.gzip : file.body);
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dossier</title></head><body><main>
<h1>The web app is not built</h1><p>Run <code>npm run build:web</code> (the image build does it), then restart the gateway. The API works meanwhile: see <a href="/docs">/docs</a>.</p></main></body></html>`;

/**
 * Serves the browser app (apps/web, built by Vite) from the same origin as the API: its client-side routes
 * answer index.html, its hashed assets are cached for good, and every response carries the strict CSP
 * (docs/decisions/0017). Plain Fastify routes: no guard, since the pages hold no data; the app reads
 * everything through /v1 with the user's key.
 */
export function mountWebApp(fastify: FastifyInstance, dir: string = DEFAULT_WEB_DIR): { built: boolean } {
  const built = existsSync(path.join(dir, 'index.html'));
  const files = built ? loadFiles(dir) : new Map<string, StaticFile>();
  const index = files.get('/index.html');
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (index) return send(req, reply, index);
    return reply.status(503).headers(WEB_APP_HEADERS).header('content-type', 'text/html; charset=utf-8').send(NOT_BUILT);
  };
  for (const route of APP_ROUTES) fastify.get(route, page);
  for (const [urlPath, file] of files) {
    if (urlPath === '/index.html') continue;
    fastify.get(urlPath, async (req, reply) => send(req, reply, file));
  }
  // A page address the app does not have, opened in a browser (a mistyped or stale link): the app's own "Page not
  // found" screen, with status 404, instead of the API's JSON answer. API paths and non-HTML requests keep the JSON.
  fastify.addHook('onRequest', async (req, reply) => {
    if (!req.is404 || (req.method !== 'GET' && req.method !== 'HEAD') || !index) return;
    if (!String(req.headers.accept ?? '').includes('text/html') || NOT_APP_PATHS.test(req.url)) return;
    return send(req, reply, index, 404);
  });
  // An asset that is not (or no longer) in the build: a plain 404 with the same headers, never index.html.
  fastify.get('/assets/*', async (_req, reply) =>
    reply.status(404).headers(WEB_APP_HEADERS).header('content-type', 'text/plain; charset=utf-8').send('Not found'),
  );
  return { built };
}
