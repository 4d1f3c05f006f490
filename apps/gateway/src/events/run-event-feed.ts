import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { RUN_EVENTS_CHANNEL } from '@dossier/db';
import { createLogger } from '@dossier/telemetry';
import type { GatewayEnv } from '../gateway-env';
import { GATEWAY_ENV } from '../gateway-tokens';

const logger = createLogger('gateway');
const RECONNECT_MS = 1_000;

/** Called with the run's last committed seq, or with 0 when notifications may have been missed (reconnect). */
export type RunEventListener = (lastSeq: number) => void;

/**
 * Live run events for this gateway process: one Postgres connection LISTENs on the channel every event append
 * notifies on commit (RunEventRepository, docs/decisions/0026), and each notification is fanned out in-process to
 * the streams of that run. A stream reads the events themselves from run_events (the durable log): a
 * notification only says "there is more after seq N". The connection opens with the first subscriber; if it
 * drops, it reconnects and wakes every stream, which re-reads from its last seq, so nothing is missed.
 */
@Injectable()
export class RunEventFeed implements OnModuleDestroy {
  private readonly listeners = new Map<string, Set<RunEventListener>>();
  private client?: Client;
  private connecting?: Promise<void>;
  private closed = false;

  constructor(@Inject(GATEWAY_ENV) private readonly env: GatewayEnv) {}

  /** Listens from now on (resolves once the LISTEN is in place); returns the unsubscribe function. */
  async subscribe(runId: string, listener: RunEventListener): Promise<() => void> {
    const set = this.listeners.get(runId) ?? new Set();
    set.add(listener);
    this.listeners.set(runId, set);
    await this.connect();
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(runId) === set) this.listeners.delete(runId);
    };
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new Client({ connectionString: this.env.DATABASE_URL });
    client.on('notification', (msg) => {
      const [runId, seq] = (msg.payload ?? '').split(' ');
      const n = Number(seq);
      if (!runId || !Number.isInteger(n)) return;
      for (const listener of this.listeners.get(runId) ?? []) listener(n);
    });
    const lost = (err?: Error): void => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.closed) return;
      logger.warn({ err: err?.message }, 'run event feed lost its connection; reconnecting');
      setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
    this.client = client;
  }

  private async reconnect(): Promise<void> {
    if (this.listeners.size === 0) return;
    try {
      await this.connect();
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'run event feed could not reconnect; trying again');
      setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
      return;
    }
    // Notifications sent while we were away are lost: every stream re-reads from its own last seq.
    for (const set of this.listeners.values()) for (const listener of set) listener(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
