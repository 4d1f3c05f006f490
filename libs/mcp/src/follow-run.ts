import { progressLine, type DossierClient } from '@dossier/client';
import { TERMINAL_RUN_STATUSES, type RunStatus, type RunView } from '@dossier/contracts';

/** What a tool call needs from the SDK's request context to report progress and notice a cancelled call. */
export interface ProgressChannel {
  signal: AbortSignal;
  /** The client's progress token (`_meta.progressToken`); without one no notification is sent. */
  progressToken?: string | number | undefined;
  notify(params: { progressToken: string | number; progress: number; message: string }): Promise<void>;
}

/** Nothing will happen to the run until someone acts: it ended, or a gate waits for a decision. */
export function settled(run: RunView): boolean {
  return TERMINAL_RUN_STATUSES.includes(run.status as RunStatus) || run.awaitingGate !== null;
}

/**
 * Follows the run for at most `waitMs`, or until it settles (a gate opens, it ends) or the call is cancelled,
 * sending one progress notification per event worth a line (the same lines `dossier research` prints; progress
 * is the event's sequence number, so it only grows). Returns the run as it is then. A gate already decided is
 * seen again in the replayed log: whether the run waits is read from the run itself, not from the event.
 */
export async function followRun(
  client: DossierClient,
  runId: string,
  waitMs: number,
  channel: ProgressChannel,
  options: { fromStart?: boolean } = {},
): Promise<RunView> {
  const now = await client.run(runId);
  if (waitMs <= 0) return now;
  // A run just started may reach its plan gate (or fail) before it is first read: its caller is still owed the
  // lines of how it got there, which the replayed log holds. Any other call settled at once has nothing to wait for.
  if (settled(now) && !options.fromStart) return now;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), waitMs);
  const signal = AbortSignal.any([stop.signal, channel.signal]);
  const repeats = new Map<string, number>();
  try {
    return await client.follow(
      runId,
      async ({ seq, data }) => {
        const line = progressLine(data, repeats);
        if (line && channel.progressToken !== undefined) {
          await channel.notify({ progressToken: channel.progressToken, progress: seq, message: line });
        }
        if (data.type === 'gate_opened' && settled(await client.run(runId))) stop.abort();
      },
      signal,
    );
  } finally {
    clearTimeout(timer);
  }
}
