import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/prisma/client';
import { BindablePool } from './sql/bindable-pool';
import { registerPooledClient } from './sql/query-rows';

export { Prisma };

export type { Db } from './db';

export interface DbOptions {
  url: string;
  poolMax?: number;
  /** Connections kept open when idle (at most `poolMax`); default 2. */
  poolMin?: number;
  /** How long a connection above `poolMin` stays open unused; 0: never closed. Default 60 s. */
  poolIdleMs?: number;
}

/**
 * The pool's size and how it keeps idle connections. pg's default closes a connection after 10 s unused, and a step
 * after a pause (a run's next stage on a service that waited on the model meanwhile) paid for a new connection and a
 * cold backend's catalog lookups: 20-100 ms before its first statement (docs/decisions/0155).
 */
export function poolSettings(options: DbOptions): { max: number; min: number; idleTimeoutMillis: number; allowExitOnIdle: true } {
  const max = options.poolMax ?? 10;
  return {
    max,
    min: Math.min(options.poolMin ?? 2, max),
    idleTimeoutMillis: options.poolIdleMs ?? 60_000,
    // Kept connections must not keep a process alive that has nothing else to do (a CLI command that forgot to close):
    // idle ones are unreferenced, as pg's 10 s timer used to end them.
    allowExitOnIdle: true,
  };
}

export function createPrismaClient(options: DbOptions): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: options.url, max: options.poolMax ?? 10 }) });
}

/** Prisma's adapter on the process's pool; the service ends the pool itself (`$disconnect`), used by Prisma or not. */
function adapterOn(pool: BindablePool): PrismaPg {
  return new PrismaPg(pool, { disposeExternalPool: false });
}

/**
 * The one Prisma client of a process. It does not connect eagerly: the first query connects, and a
 * database that is down fails that query with a classified (retryable) error instead of a half-booted app.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  /** The driver's pool under Prisma: the step engine sends its own statements on it (docs/decisions/0104). */
  readonly pool: BindablePool;

  constructor(options: DbOptions) {
    const pool = new BindablePool({ connectionString: options.url, ...poolSettings(options) });
    super({ adapter: adapterOn(pool) });
    this.pool = pool;
    registerPooledClient(this, pool);
  }

  override async $disconnect(): Promise<void> {
    await super.$disconnect();
    if (!this.pool.ended) await this.pool.end();
  }

  /**
   * The last of Nest's shutdown hooks, not `onModuleDestroy`: the step transports drain and the conductor finishes its tick
   * in `beforeApplicationShutdown`, after every `onModuleDestroy`, and their statements need the pool (decision 0148).
   */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
