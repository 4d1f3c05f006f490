import { randomBytes } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { VectorStoreLockedError } from '../errors';

const LOCK_FILE = 'LOCK';
/** Directories locked by stores of this process: a pid check alone cannot tell our own stale lock from a live one. */
const heldHere = new Set<string>();

/**
 * An exclusive claim on a store directory by one store instance: a LOCK file holding the owner's pid. It is
 * written under a private name and hard-linked into place, so LOCK never exists without its pid (link fails
 * if LOCK exists). A lock whose pid is no longer running (a killed process) is taken over. Two processes
 * taking over the same stale lock at the same instant could both succeed; one machine starting its
 * services one by one does not do that.
 */
export class DirectoryLock {
  private constructor(
    private readonly dir: string,
    private readonly file: string,
  ) {}

  static async acquire(directory: string): Promise<DirectoryLock> {
    const dir = resolve(directory);
    const file = join(dir, LOCK_FILE);
    if (heldHere.has(dir)) throw new VectorStoreLockedError(`${dir} is already open in this process`);
    // Reserved before the first await, so a second open() of the same directory in this process cannot
    // mistake our half-taken lock (our own pid) for a stale one.
    heldHere.add(dir);
    try {
      await takeLock(dir, file);
    } catch (err) {
      heldHere.delete(dir);
      throw err;
    }
    return new DirectoryLock(dir, file);
  }

  async release(): Promise<void> {
    heldHere.delete(this.dir);
    await unlink(this.file);
  }
}

async function takeLock(dir: string, file: string): Promise<void> {
  // Two attempts: the second follows removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await tryCreate(file)) return;
    const owner = await readOwner(file);
    if (owner !== undefined && owner !== process.pid && isRunning(owner)) {
      throw new VectorStoreLockedError(`${dir} is open in process ${owner}`, { details: { pid: owner } });
    }
    // Our own pid (a store of this process would be in heldHere, so this is a leftover of an earlier
    // process that had our pid), a dead pid, or content we never write: stale.
    await unlink(file).catch((unlinkErr: NodeJS.ErrnoException) => {
      if (unlinkErr.code !== 'ENOENT') throw unlinkErr;
    });
  }
  throw new VectorStoreLockedError(`${dir}: another process took the lock while a stale one was being removed`);
}

async function tryCreate(file: string): Promise<boolean> {
  const staged = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(staged, `${process.pid}\n`, { flag: 'wx' });
  try {
    await link(staged, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(staged);
  }
}

async function readOwner(file: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    // Removed between our link attempt and this read: the next attempt will create it.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else — still running.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
