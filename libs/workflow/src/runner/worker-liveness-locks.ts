import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { PrismaService } from '@dossier/db';
import type { WorkerLiveness } from '@dossier/queue';
import { createLogger } from '@dossier/telemetry';
import { WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';

const NAMESPACE = 'dossier.worker';

/**
 * Worker liveness as Postgres session advisory locks (docs/decisions/0027): each BullMQ worker of this process
 * holds `(hashtext('dossier.worker'), hashtext(<worker id>))` on one connection kept for the process's life. The
 * kernel closes that connection when the process dies, however it dies, and Postgres drops the locks at once; a
 * blocked event loop or a minute-long model call changes nothing. The conductor asks `unheld` for the workers
 * named in its active jobs' BullMQ lock tokens.
 */
@Injectable()
export class WorkerLivenessLocks implements WorkerLiveness, OnModuleDestroy {
  private readonly logger = createLogger('worker-liveness');
  private client?: Client;

  constructor(
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
    private readonly prisma: PrismaService,
  ) {}

  async hold(workerIds: readonly string[]): Promise<void> {
    if (workerIds.length === 0) return;
    const client = new Client({ connectionString: this.options.databaseUrl });
    // Postgres restarted: the locks went with the connection, and the conductor may hand our running steps to
    // other workers (their step locks went too; a step still completes once). Logged; the process keeps serving.
    client.on('error', (err) => this.logger.error({ err: err.message }, 'liveness connection lost'));
    await client.connect();
    for (const id of workerIds) await client.query(`SELECT pg_advisory_lock(hashtext('${NAMESPACE}'), hashtext($1))`, [id]);
    this.client = client;
  }

  /** The worker ids among `workerIds` whose liveness lock no session holds: those workers are gone. */
  async unheld(workerIds: readonly string[]): Promise<string[]> {
    if (workerIds.length === 0) return [];
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT w AS id FROM unnest(${[...workerIds]}::text[]) AS w
      WHERE NOT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = hashtext(${NAMESPACE})::oid AND l.objid = hashtext(w)::oid)`;
    return rows.map((r) => r.id);
  }

  async onModuleDestroy(): Promise<void> {
    await this.client?.end().catch(() => undefined);
  }
}
