import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { LIVENESS_NAMESPACE as NAMESPACE, PrismaService } from '@dossier/db';
import type { WorkerLiveness } from '@dossier/queue';
import { createLogger } from '@dossier/telemetry';
import { WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';

/**
 * Worker liveness as Postgres session advisory locks (docs/decisions/0027): each BullMQ worker of this process
 * holds `(hashtext('dossier.worker'), hashtext(<worker id>))` on one connection kept for the process's life. The
 * kernel closes that connection when the process dies, however it dies, and Postgres drops the locks at once; a
 * blocked event loop or a minute-long model call changes nothing. The conductor asks `unheld` for the workers
 * named in its active jobs' BullMQ lock tokens.
 *
 * The same connection holds one more lock, for `leaseOwner`: the id this process writes as the owner of the steps it
 * runs (docs/decisions/0070). Another worker may take a running step over at once when no session holds its owner's
 * lock (the owner died), and only after its lease expires otherwise.
 */
@Injectable()
export class WorkerLivenessLocks implements WorkerLiveness, OnModuleDestroy {
  private readonly logger = createLogger('worker-liveness');
  /** This process's id as the owner of step leases, alive while its lock is held. */
  readonly leaseOwner = `process-${randomUUID()}`;
  private client?: Client;
  private ids: readonly string[] = [];
  private closed = false;

  constructor(
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
    private readonly prisma: PrismaService,
  ) {}

  /**
   * Holds a liveness lock per worker id, waiting for the database when it is unreachable (a service restarted during
   * an outage must start when Postgres is back, not die), and holds them again whenever the connection is lost: a
   * worker without its lock would have every job it starts taken by the conductor's stall watch.
   */
  async hold(workerIds: readonly string[]): Promise<void> {
    if (workerIds.length === 0) return;
    this.ids = [...workerIds, this.leaseOwner];
    await this.holdUntilHeld();
  }

  private async holdUntilHeld(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      let client: Client | undefined;
      try {
        // Inside the try: this loop also runs from a lost connection's 'end' handler, where a throw would be an
        // unhandled rejection that ends the process.
        client = new Client({ connectionString: this.options.databaseUrl });
        client.on('error', (err) => this.logger.warn({ err: err.message }, 'liveness connection error'));
        await client.connect();
        for (const id of this.ids) await client.query(`SELECT pg_advisory_lock(hashtext('${NAMESPACE}'), hashtext($1))`, [id]);
      } catch (err) {
        await client?.end().catch(() => undefined);
        this.logger.warn({ err: (err as Error).message, attempt }, 'cannot hold the worker liveness locks yet; retrying');
        await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
        continue;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      // Postgres restarted or dropped the connection: the locks went with it. Hold them again on a new one.
      client.once('end', () => {
        if (this.closed || this.client !== client) return;
        this.client = undefined;
        this.logger.error('liveness connection lost; holding the worker locks again');
        void this.holdUntilHeld();
      });
      return;
    }
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
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }
}
