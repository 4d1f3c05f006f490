import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NestPinoLogger, createLogger } from '@dossier/telemetry';
import { connectStepTransport } from '@dossier/workflow';
import { mountBullBoard } from './admin/bull-board';
import { ApiErrorFilter, sendError } from './common/api-error.filter';
import { answerClientError } from './common/client-error';
import { applySecurityHeaders, installHttpHardening } from './common/http-hardening';
import type { GatewayEnv } from './gateway-env';
import { GatewayModule, type GatewayHosting } from './gateway.module';
import { GatewayMetrics } from './health/gateway-metrics';
import { mountWebApp } from './web/web-app';

/**
 * Builds the gateway application (not yet listening): Fastify with the body limit, JSON bodies only (multipart
 * on the upload route), security headers on every answer, one error shape for every failure (the router's,
 * Fastify's and Node's HTTP parser's included), request metrics and bull-board.
 */
export async function createGateway(env: GatewayEnv, hosting: GatewayHosting = {}): Promise<NestFastifyApplication> {
  const logger = createLogger('gateway');
  const adapter = new FastifyAdapter({
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy: env.TRUST_PROXY === undefined || env.TRUST_PROXY === 'false' ? false : env.TRUST_PROXY,
    routerOptions: { maxParamLength: 200 },
    // Errors the router raises before any route runs (a malformed URL, an overlong parameter): same error shape.
    frameworkErrors: (err: Error, req: FastifyRequest, reply: FastifyReply) => {
      applySecurityHeaders(reply.raw, req.url);
      sendError(reply, err);
    },
    // Errors of Node's HTTP parser (headers too large, not HTTP at all), before Fastify has a request.
    clientErrorHandler: answerClientError,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.register(env, hosting), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    // Nest's default parsers would add application/x-www-form-urlencoded: Fastify's own JSON parser is the only one.
    bodyParser: false,
  });
  app.useGlobalFilters(new ApiErrorFilter());
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  fastify.removeContentTypeParser('text/plain');
  // Document uploads may also come as multipart/form-data (one file); the hardening hook refuses it elsewhere.
  await app.register(fastifyMultipart as never, { limits: { files: 1, fields: 10, fileSize: env.BODY_LIMIT_BYTES } });
  installHttpHardening(fastify);
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
  // Hosting stages (tests, one-process setups): their queues are consumed by the BullMQ transport, connected to this app.
  if ((hosting.consume ?? []).length > 0) await connectStepTransport(app);
  return app;
}
