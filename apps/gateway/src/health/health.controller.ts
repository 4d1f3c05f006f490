import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { register } from 'prom-client';
import { PrismaService } from '@dossier/db';
import { describeError } from '@dossier/errors';
import { REDIS } from '@dossier/queue';

/** Probes and metrics: unauthenticated, outside /v1 (Kubernetes and Prometheus call them). */
@Controller()
export class HealthController {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Liveness: the process answers. */
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: Postgres and Redis both answer; otherwise 503 naming which does not. */
  @Get('readyz')
  async readyz(@Res() reply: FastifyReply): Promise<void> {
    const check = async (fn: () => Promise<unknown>): Promise<string> => {
      try {
        await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 2 s')), 2_000).unref())]);
        return 'ok';
      } catch (err) {
        return describeError(err).message;
      }
    };
    const [postgres, redis] = await Promise.all([check(() => this.prisma.$queryRaw`SELECT 1`), check(() => this.redis.ping())]);
    const ok = postgres === 'ok' && redis === 'ok';
    void reply
      .status(ok ? 200 : 503)
      .send(
        ok
          ? { status: 'ok', postgres, redis }
          : { error: 'not_ready', message: 'A dependency is unreachable', details: { postgres, redis } },
      );
  }

  @Get('metrics')
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    void reply.header('content-type', register.contentType).send(await register.metrics());
  }
}
