import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The directory of initdb/pg_ctl: the newest /usr/lib/postgresql/N/bin, or whatever PATH finds. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, 'bin/pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  return '';
}

/**
 * A Postgres cluster of the soak's own: initdb into its folder, a spare port, trust auth on 127.0.0.1 only,
 * durability off (the soak's data is thrown away; a stop is still a real crash for every client). initdb and
 * the server refuse to run as root, so under root both run as the `postgres` user, which owns the folder.
 */
export class OwnPostgres {
  private readonly bin = postgresBin();
  private readonly data: string;
  private readonly log: string;
  private running = false;

  constructor(
    private readonly dir: string,
    readonly port: number,
  ) {
    this.data = path.join(dir, 'data');
    this.log = path.join(dir, 'postgres.log');
  }

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/soak`;
  }

  get adminUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async init(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
        throw new Error('the soak runs as root and needs a `postgres` user to run initdb and the server as');
      });
      const uid = Number(stdout.trim());
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      // The soak's folder (made 0700 by mkdtemp) must be traversable by that user; its contents stay private.
      chmodSync(path.dirname(this.dir), 0o711);
      chownSync(this.dir, uid, Number(gid.trim()));
    }
    await this.pg('initdb', ['-D', this.data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  }

  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=400',
      // fsync and full-page writes off: only an operating-system crash could lose data, and the soak crashes Postgres,
      // not the machine. synchronous_commit stays on: with it off, the immediate stop of the outage threw away
      // transactions that had already committed, and whose events an SSE client had already received (the soak then
      // saw an event "not in the log" when a later event took its seq) — a loss production never has.
      '-c fsync=off',
      '-c full_page_writes=off',
    ].join(' ');
    await this.pg('pg_ctl', ['-D', this.data, '-o', options, '-l', this.log, '-w', '-t', '120', 'start']);
    this.running = true;
  }

  /** `immediate` is a crash (clients see their connections die mid-query); `fast` is a clean stop. */
  async stop(mode: 'immediate' | 'fast'): Promise<void> {
    if (!this.running) return;
    await this.pg('pg_ctl', ['-D', this.data, '-m', mode, '-w', '-t', '120', 'stop']);
    this.running = false;
  }

  logTail(chars = 4000): string {
    return existsSync(this.log) ? readFileSync(this.log, 'utf8').slice(-chars) : '';
  }

  private async pg(tool: string, args: string[]): Promise<void> {
    const exe = this.bin ? path.join(this.bin, tool) : tool;
    const [cmd, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
    try {
      await run(cmd, argv, { timeout: 180_000 });
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`${tool} ${args.at(-1)} failed: ${(e.stderr ?? e.message).trim()}\n${this.logTail(2000)}`, { cause: err });
    }
  }
}
