import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { PrismaService } from '@dossier/db';
import { describeError } from '@dossier/errors';
import { REDIS } from '@dossier/queue';
import { createLogger } from '@dossier/telemetry';

const logger = createLogger('gateway');

/**
 * Probes: unauthenticated, outside /v1 (Kubernetes and load balancers call them). They say only whether a
 * dependency answers, never why not (the reason is logged). Metrics are on the ops port (METRICS_PORT), not here.
 */
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
        logger.warn({ err: describeError(err) }, 'readiness check failed');
        return 'unreachable';
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
}
