import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Pool, type PoolClient } from 'pg';
import { WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';

export interface StepLock {
  release(): Promise<void>;
}

/**
 * At most one worker runs a given step at a time. The lock is a Postgres session advisory lock held on a
 * connection for the duration of the step: if the worker process dies, its connection closes and Postgres
 * drops the lock at once, so a crashed worker never blocks the step's next attempt. (A lease with a
 * heartbeat would have to wait for the lease to expire.)
 */
@Injectable()
export class StepLocks implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(WORKFLOW_OPTIONS) options: WorkflowOptions) {
    this.pool = new Pool({ connectionString: options.databaseUrl, max: options.lockPoolMax, idleTimeoutMillis: 30_000 });
    // An idle client that errors (e.g. Postgres restarted) must not crash the process.
    this.pool.on('error', () => undefined);
  }

  async tryAcquire(stepKey: string): Promise<StepLock | null> {
    const client: PoolClient = await this.pool.connect();
    // A connection that dies while the step holds it (Postgres restarted) emits 'error' on the checked-out client,
    // which the pool does not listen to: without this listener the worker process would crash. The lock died with
    // the connection; the step goes on, and its commit still allows one completion only.
    const onError = (): void => undefined;
    client.on('error', onError);
    try {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext('dossier.step'), hashtext($1)) AS ok", [
        stepKey,
      ]);
      if (!rows[0]?.ok) {
        client.off('error', onError);
        client.release();
        return null;
      }
    } catch (err) {
      client.off('error', onError);
      client.release(err as Error);
      throw err;
    }
    return {
      release: async () => {
        try {
          await client.query("SELECT pg_advisory_unlock(hashtext('dossier.step'), hashtext($1))", [stepKey]);
          client.off('error', onError);
          client.release();
        } catch (err) {
          // Destroying the connection releases the lock too.
          client.off('error', onError);
          client.release(err as Error);
        }
      },
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
