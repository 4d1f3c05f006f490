import { hostname } from 'node:os';
import { open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Says "this process is compacting or indexing collection X" to every process sharing the directory, so that
 * one of them does the work (an index build takes minutes of CPU) instead of each. It guards no data: LanceDB's
 * commits are atomic, and two builds at once would only waste time. A claim left by a process that died mid-build
 * expires after `staleAfterMs`, its age read from the file's mtime.
 */
export class MaintenanceClaim {
  private constructor(private readonly file: string) {}

  /** The claim, or undefined when a live one is held elsewhere. */
  static async take(directory: string, collection: string, staleAfterMs: number): Promise<MaintenanceClaim | undefined> {
    const file = join(directory, `${collection}.maintenance`);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(file, 'wx');
        await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
        await handle.close();
        return new MaintenanceClaim(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const age = await ageOf(file);
      if (age !== undefined && age < staleAfterMs) return undefined;
      // Stale (or just released): remove it and try once more; a process racing us to it wins, and we skip.
      if (age !== undefined) await rm(file, { force: true });
    }
    return undefined;
  }

  async release(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

async function ageOf(file: string): Promise<number | undefined> {
  try {
    return Date.now() - (await stat(file)).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
