import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { waitFor } from '@dossier/testing';

/** A redis-server of the soak's own on a spare port: no persistence, noeviction (as Dossier requires). */
export class OwnRedis {
  private child: ChildProcess | undefined;
  private log = '';

  constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    args.push('--maxmemory-policy', 'noeviction', '--dir', this.dir, '--logfile', path.join(this.dir, 'redis.log'));
    this.child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (c: Buffer) => (this.log += c.toString()));
    this.child.stderr?.on('data', (c: Buffer) => (this.log += c.toString()));
    const exited = new Promise<never>((_, reject) =>
      this.child!.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${this.log.slice(-1000)}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      waitFor('redis-server to answer', () => this.command((r) => r.ping()).catch(() => false), { intervalMs: 100 }),
      exited,
    ]);
  }

  /** Loses every queue, lock and rate-limit key at once: Postgres must be enough to carry on. */
  flushAll(): Promise<string> {
    return this.command((r) => r.flushall());
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }

  private async command<T>(fn: (r: Redis) => Promise<T>): Promise<T> {
    const redis = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null });
    // Errors reach the caller through the rejected command; without a listener ioredis would print them too.
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await fn(redis);
    } finally {
      redis.disconnect();
    }
  }
}
