import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * One service of the system as its own Node process (apps/<name>/src/main.ts under tools/ts-register.cjs, as
 * production runs one process per service). Its output is appended to a log file; it is "up" once its HTTP
 * port answers /healthz. It can be killed with SIGKILL and started again, as often as the chaos loop likes; a
 * process that dies on its own is recorded as a crash and started again.
 */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  private up = false;
  private killing = false;
  private closed = false;
  private readonly log: WriteStream;
  starts = 0;
  /** Exits nobody asked for (the process died on its own). */
  readonly crashes: { at: number; code: number | null; signal: string | null }[] = [];

  constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
    /** The port of its /healthz: the gateway's PORT, or a worker's METRICS_PORT. */
    private readonly healthPort: number,
    logDir: string,
  ) {
    this.log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Started and answering /healthz. */
  get isUp(): boolean {
    return this.running && this.up;
  }

  start(): void {
    if (this.running || this.closed) return;
    this.starts++;
    this.up = false;
    const entry = path.join(REPO_ROOT, 'apps', this.name, 'src/main.ts');
    const child = spawn(process.execPath, ['--enable-source-maps', '-r', path.join(REPO_ROOT, 'tools/ts-register.cjs'), entry], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.log.write(`--- start #${this.starts} pid ${child.pid} at ${new Date().toISOString()}\n`);
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    child.once('exit', (code, signal) => {
      this.log.write(`--- pid ${child.pid} exited (${signal ?? code}) at ${new Date().toISOString()}\n`);
      if (!this.killing && !this.closed) {
        // Died on its own: recorded, and started again as a supervisor (Kubernetes, systemd) would.
        this.crashes.push({ at: Date.now(), code, signal });
        setTimeout(() => !this.closed && this.start(), 1_000).unref();
      }
      this.killing = false;
    });
    this.child = child;
    void this.watchHealth(child);
  }

  /** SIGKILL, and wait until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    this.killing = true;
    child.kill('SIGKILL');
    await gone;
    this.up = false;
  }

  /** Resolves once the process answers /healthz (or rejects when it exits first or time runs out). */
  async waitUp(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.isUp) {
      if (!this.running) throw new Error(`${this.name} exited before it was up (see its log)`);
      if (Date.now() > deadline) throw new Error(`${this.name} was not up within ${timeoutMs} ms (see its log)`);
      await sleep(100);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.kill();
    await new Promise((resolve) => this.log.end(resolve));
  }

  private async watchHealth(child: ChildProcess): Promise<void> {
    while (this.child === child && this.running && !this.up) {
      try {
        const res = await fetch(`http://127.0.0.1:${this.healthPort}/healthz`, { signal: AbortSignal.timeout(1_000) });
        if (res.ok && this.child === child) this.up = true;
      } catch {
        // not listening yet
      }
      if (!this.up) await sleep(200);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
