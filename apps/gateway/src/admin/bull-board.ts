import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { SERVICE_NAMES } from '@dossier/contracts';
import { StepQueues } from '@dossier/queue';
import { adminAuthorized } from './admin-auth';

export const BULL_BOARD_PATH = '/admin/queues';

/** bull-board over every step queue at /admin/queues, only for holders of ADMIN_API_KEY. */
export async function mountBullBoard(app: NestFastifyApplication, adminKey: string): Promise<void> {
  const queues = app.get(StepQueues);
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  // @bull-board/fastify pins its own copy of @bull-board/api one patch behind: same shape, distinct private types.
  createBullBoard({ queues: SERVICE_NAMES.map((name) => new BullMQAdapter(queues.queue(name))), serverAdapter: serverAdapter as never });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  await fastify.register(
    async (scope) => {
      scope.addHook('onRequest', async (req, reply) => {
        if (adminAuthorized(req.headers.authorization, adminKey)) return;
        await reply.status(401).header('www-authenticate', 'Basic realm="dossier-admin", charset="UTF-8"').send({
          error: 'unauthorized',
          message: 'The admin key is required (ADMIN_API_KEY as Bearer token or Basic password)',
          details: null,
        });
      });
      await scope.register(serverAdapter.registerPlugin() as never);
    },
    { prefix: BULL_BOARD_PATH },
  );
}
