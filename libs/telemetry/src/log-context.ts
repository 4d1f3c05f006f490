import { AsyncLocalStorage } from 'node:async_hooks';

/** Ids that every log line written while handling a step carries. */
export interface LogContext {
  runId?: string;
  stepKey?: string;
  tenantId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, fn);
}

export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}
