import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { SERVICE_NAMES } from '@dossier/contracts';
import { StepQueues } from '@dossier/queue';
import { AuthFailureLimiter } from '../auth/auth-failure-limiter';
import { mapError, sendError } from '../common/api-error.filter';
import { AuthenticationError } from '../common/http-errors';
import { adminAuthorized } from './admin-auth';

export const BULL_BOARD_PATH = '/admin/queues';

/**
 * bull-board over every step queue at /admin/queues, only for holders of ADMIN_API_KEY. Wrong admin keys count
 * against the client address's failed-authentication budget, the one `/v1` keys draw on (AuthFailureLimiter): an
 * address out of budget gets 429 before its key is compared, so the admin key cannot be guessed at request rate.
 */
export async function mountBullBoard(app: NestFastifyApplication, adminKey: string): Promise<void> {
  const queues = app.get(StepQueues);
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  // @bull-board/fastify pins its own copy of @bull-board/api one patch behind: same shape, distinct private types.
  createBullBoard({ queues: SERVICE_NAMES.map((name) => new BullMQAdapter(queues.queue(name))), serverAdapter: serverAdapter as never });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const failures = app.get(AuthFailureLimiter);
  await fastify.register(
    async (scope) => {
      // An async hook that answers must return the reply, or Fastify goes on to the route as well.
      scope.addHook('onRequest', async (req, reply) => {
        try {
          await failures.checkAllowed(req.ip);
        } catch (err) {
          sendError(reply, err);
          return reply;
        }
        if (adminAuthorized(req.headers.authorization, adminKey)) return;
        const limited = await failures.recordFailure(req.ip);
        if (limited) {
          sendError(reply, limited);
          return reply;
        }
        const { status, body } = mapError(
          new AuthenticationError('The admin key is required (ADMIN_API_KEY as Bearer token or Basic password)'),
        );
        // Basic, not the API's Bearer challenge: a browser then asks for the key by itself.
        return reply.status(status).header('www-authenticate', 'Basic realm="dossier-admin", charset="UTF-8"').send(body);
      });
      await scope.register(serverAdapter.registerPlugin() as never);
    },
    { prefix: BULL_BOARD_PATH },
  );
}
