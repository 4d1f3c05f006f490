import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NestPinoLogger, createLogger } from '@dossier/telemetry';
import { mountBullBoard } from './admin/bull-board';
import { ApiErrorFilter, mapError } from './common/api-error.filter';
import type { GatewayEnv } from './gateway-env';
import { GatewayModule, type GatewayHosting } from './gateway.module';
import { GatewayMetrics } from './health/gateway-metrics';
import { mountWebApp } from './web/web-app';

/**
 * Builds the gateway application (not yet listening): Fastify with the body limit, JSON only (plus
 * whatever Fastify parses natively), one error shape for every failure, request metrics and bull-board.
 */
export async function createGateway(env: GatewayEnv, hosting: GatewayHosting = {}): Promise<NestFastifyApplication> {
  const logger = createLogger('gateway');
  const adapter = new FastifyAdapter({
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy: true,
    routerOptions: { maxParamLength: 200 },
    // Errors the router raises before any route runs (a malformed URL, an overlong parameter): same error shape.
    frameworkErrors: (err: Error, _req: FastifyRequest, reply: FastifyReply) => {
      const mapped = mapError(err);
      void reply.status(mapped.status).send(mapped.body);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.register(env, hosting), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  app.useGlobalFilters(new ApiErrorFilter());
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  // Only JSON bodies (and none at all): anything else is a 415 before a handler runs.
  fastify.removeContentTypeParser('text/plain');
  // Document uploads may also come as multipart/form-data (one file); everything else must be JSON.
  await app.register(fastifyMultipart as never, { limits: { files: 1, fields: 10, fileSize: env.BODY_LIMIT_BYTES } });
  const metrics = app.get(GatewayMetrics);
  fastify.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    metrics.latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  if (env.ADMIN_API_KEY) await mountBullBoard(app, env.ADMIN_API_KEY);
  const web = mountWebApp(fastify, env.WEB_DIR);
  if (!web.built) logger.warn('the web app is not built (npm run build:web): / answers 503 until it is');
  await app.init();
  return app;
}
