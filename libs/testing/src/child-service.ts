import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { HANG_GUARD_MS } from './hang-guard';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

export interface ChildService {
  readonly process: ChildProcess;
  readonly pid: number;
  output(): string;
  /** Resolves when the output matches; rejects at once when the process exits first (only a hang otherwise: HANG_GUARD_MS). */
  waitForOutput(pattern: RegExp): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Starts a TypeScript entry point as its own Node process (as the apps run in production: one process
 * per service), compiled on load by tools/ts-register.cjs. Output is collected for assertions.
 */
export function startChildService(
  entry: string,
  env: Record<string, string>,
  label = path.basename(entry),
  args: string[] = [],
): ChildService {
  const child = spawn(process.execPath, ['--enable-source-maps', '-r', path.join(REPO_ROOT, 'tools/ts-register.cjs'), entry, ...args], {
    cwd: REPO_ROOT,
    // A command's check that Postgres and Redis answer is bounded by DOSSIER_CONNECT_TIMEOUT_MS (10 s): on this
    // two-core machine with the suite's three streams and other checkouts, a new Postgres connection was seen to take
    // 3-6 s, which failed whole CLI specs as "not answering". A test of that bound sets its own.
    env: { ...process.env, NODE_ENV: 'test', DOSSIER_CONNECT_TIMEOUT_MS: '60000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    out += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    pid: child.pid ?? -1,
    output: () => out,
    exited,
    kill: (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    waitForOutput: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const check = (): void => {
          const m = pattern.exec(out);
          if (m) {
            cleanup();
            resolve(m[0]);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${label}: hung, no output matching ${pattern} within ${HANG_GUARD_MS} ms. Output:\n${out.slice(-4000)}`));
        }, HANG_GUARD_MS);
        const onExit = (): void => {
          setTimeout(() => {
            if (!pattern.test(out)) {
              cleanup();
              reject(new Error(`${label} exited before printing ${pattern}. Output:\n${out.slice(-4000)}`));
            }
          }, 50);
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.on('exit', onExit);
        check();
      }),
  };
}
