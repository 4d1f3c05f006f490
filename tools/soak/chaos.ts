import type { OwnPostgres } from './own-postgres';
import type { OwnRedis } from './own-redis';
import { sleep } from './abortable-sleep';
import type { Random } from './random';
import type { SoakSystem } from './soak-system';

export interface ChaosPlan {
  kills: number;
  flushes: number;
  outages: number;
  outageSeconds: number;
  /** The window over which kills, flushes and outages are spread, in ms from the start. */
  windowMs: number;
}

export interface ChaosRecord {
  kills: { at: number; service: string; pid: number }[];
  flushes: number[];
  outages: { from: number; to: number }[];
  /** Faults that could not be applied (e.g. pg_ctl failed): a soak that did not do what it says is no soak. */
  errors: string[];
}

/**
 * The chaos loop: SIGKILL a random running service process every few seconds (jittered) and start it again
 * after a short pause; FLUSHALL Redis at a random moment; stop Postgres (immediate: a crash for every client)
 * for `outageSeconds` at another. Kills go on past the window until the planned number is reached.
 */
export class Chaos {
  readonly record: ChaosRecord = { kills: [], flushes: [], outages: [], errors: [] };
  private readonly restarts = new Set<Promise<void>>();

  constructor(
    private readonly system: SoakSystem,
    private readonly redis: OwnRedis,
    private readonly postgres: OwnPostgres,
    private readonly random: Random,
    private readonly plan: ChaosPlan,
  ) {}

  async run(stop: AbortSignal): Promise<ChaosRecord> {
    const start = Date.now();
    const at = (fraction: number): number => start + fraction * this.plan.windowMs;
    const faults: { when: number; apply: () => Promise<void> }[] = [];
    for (let i = 0; i < this.plan.flushes; i++) faults.push({ when: at(0.15 + 0.7 * this.random.next()), apply: () => this.flush() });
    for (let i = 0; i < this.plan.outages; i++) faults.push({ when: at(0.15 + 0.7 * this.random.next()), apply: () => this.outage() });
    const pending = faults.map(async (f) => {
      await sleep(f.when - Date.now(), stop);
      if (!stop.aborted) await f.apply();
    });
    const interval = this.plan.kills > 0 ? this.plan.windowMs / this.plan.kills : 0;
    while (!stop.aborted && this.record.kills.length < this.plan.kills) {
      await sleep(interval * (0.5 + this.random.next()), stop);
      if (stop.aborted) break;
      await this.killOne();
    }
    await Promise.all(pending);
    await Promise.all(this.restarts);
    return this.record;
  }

  private async killOne(): Promise<void> {
    const candidates = this.system.services.filter((s) => s.isUp);
    if (candidates.length === 0) return;
    const victim = this.random.pick(candidates);
    const pid = victim.pid ?? -1;
    await victim.kill();
    this.record.kills.push({ at: Date.now(), service: victim.name, pid });
    const pause = this.random.int(200, 2_000);
    const restart = sleep(pause).then(() => victim.start());
    this.restarts.add(restart);
    void restart.finally(() => this.restarts.delete(restart));
  }

  private async flush(): Promise<void> {
    try {
      await this.redis.flushAll();
      this.record.flushes.push(Date.now());
    } catch (err) {
      this.record.errors.push(`FLUSHALL failed: ${(err as Error).message}`);
    }
  }

  private async outage(): Promise<void> {
    const from = Date.now();
    try {
      await this.postgres.stop('immediate');
    } catch (err) {
      this.record.errors.push(`stopping Postgres failed: ${(err as Error).message}`);
      return;
    }
    await new Promise((r) => setTimeout(r, this.plan.outageSeconds * 1_000));
    try {
      await this.postgres.start();
      this.record.outages.push({ from, to: Date.now() });
    } catch (err) {
      this.record.errors.push(`starting Postgres again failed: ${(err as Error).message}`);
    }
  }
}
