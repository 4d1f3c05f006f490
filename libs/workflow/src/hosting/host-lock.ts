import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { PrismaService } from '@dossier/db';
import { createLogger } from '@dossier/telemetry';
import { WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';

const NAMESPACE = 'dossier.host';

/**
 * Whether a run's host is alive (docs/decisions/0075). A local process that hosts workers holds the session advisory
 * lock `(hashtext('dossier.host'), hashtext(<its host id>))` on a connection of its own for its whole life; the kernel
 * closes that connection when the process dies, however it dies, and Postgres drops the lock at once (as the worker
 * liveness locks, 0027). Resuming a run hosted by a process that still holds its lock is refused: two processes
 * would advance one run.
 */
@Injectable()
export class HostLock implements OnModuleInit, OnModuleDestroy {
  private readonly logger = createLogger('host-lock');
  private client?: Client;

  constructor(
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
    private readonly prisma: PrismaService,
  ) {}

  async onModuleInit(): Promise<void> {
    const host = this.options.host;
    if (!host || !this.options.holdsHost) return;
    const client = new Client({ connectionString: this.options.databaseUrl });
    client.on('error', (err) => this.logger.warn({ err: err.message }, 'host lock connection error'));
    await client.connect();
    // Free, unless another process was given the same id (a random 64-bit id: only by a bug); then fail loudly.
    const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtext('${NAMESPACE}'), hashtext($1)) AS ok`, [
      host,
    ]);
    if (!rows[0]?.ok) {
      await client.end().catch(() => undefined);
      throw new Error(`Host id ${host} is held by another process`);
    }
    this.client = client;
  }

  /** Whether a process holds `host`'s lock (a null host, the deployment, counts as alive: it is not one process). */
  async alive(host: string | null): Promise<boolean> {
    if (host === null) return true;
    const rows = await this.prisma.$queryRaw<{ held: boolean }[]>`
      SELECT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = hashtext(${NAMESPACE})::oid AND l.objid = hashtext(${host})::oid) AS held`;
    return rows[0]?.held === true;
  }

  async onModuleDestroy(): Promise<void> {
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
