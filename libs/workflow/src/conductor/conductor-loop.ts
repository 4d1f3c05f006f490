import { Inject, Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { describeError } from '@dossier/errors';
import { createLogger } from '@dossier/telemetry';
import { Reconciler } from '../outbox/reconciler';
import { StallWatch } from './stall-watch';
import { RunExpiry } from './run-expiry';

export interface ConductorOptions {
  relayIntervalMs: number;
  reconcileIntervalMs: number;
  relayMinAgeMs: number;
  /** How often the stall watch looks for active steps whose worker is gone (docs/decisions/0027). */
  stallWatchIntervalMs: number;
}

export const CONDUCTOR_OPTIONS = Symbol('CONDUCTOR_OPTIONS');

const RECORDING_PURGE_INTERVAL_MS = 3_600_000;

/**
 * The conductor's loops: relay unsent outbox rows, hand the steps of dead workers to live ones, reconcile
 * steps Redis lost, expire gates and deadlines, purge expired recordings. Each tick runs to completion before the next is scheduled, and shutdown waits for the
 * tick in flight. Every action is idempotent, so two conductors side by side are safe.
 */
@Injectable()
export class ConductorLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = createLogger('conductor');
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    @Inject(CONDUCTOR_OPTIONS) private readonly options: ConductorOptions,
    private readonly reconciler: Reconciler,
    private readonly expiry: RunExpiry,
    private readonly stallWatch: StallWatch,
  ) {}

  onApplicationBootstrap(): void {
    this.every('relay', this.options.relayIntervalMs, async () => {
      await this.reconciler.relay(this.options.relayMinAgeMs);
    });
    this.every('stall watch', this.options.stallWatchIntervalMs, async () => {
      await this.stallWatch.scan();
    });
    this.every('reconcile', this.options.reconcileIntervalMs, async () => {
      await this.reconciler.reconcile();
      await this.expiry.expireGates();
      await this.expiry.expireDeadlines();
    });
    // Recordings past their tenant's retention (decision 0030): hourly is enough for a limit counted in days.
    this.every('recording retention', RECORDING_PURGE_INTERVAL_MS, async () => {
      const purged = await this.expiry.purgeExpiredRecordings();
      if (purged.calls > 0) this.logger.info(purged, 'purged expired recordings');
    });
    this.logger.info(this.options, 'conductor started');
  }

  private every(name: string, ms: number, fn: () => Promise<void>): void {
    const tick = (): void => {
      if (this.stopped) return;
      const p = fn()
        .catch((err: unknown) => this.logger.error({ err: describeError(err) }, `${name} tick failed; will try again`))
        .finally(() => {
          this.inFlight.delete(p);
          if (!this.stopped) this.schedule(tick, ms);
        });
      this.inFlight.add(p);
    };
    this.schedule(tick, 0);
  }

  private schedule(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(this.inFlight);
  }
}
