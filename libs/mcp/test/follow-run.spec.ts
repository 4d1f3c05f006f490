import type { DossierClient } from '@dossier/client';
import type { RunView, SequencedEvent } from '@dossier/contracts';
import { followRun } from '../src/follow-run';

/*
 * A run that reaches its plan gate before start_research first reads it (the planner is quick; the MCP process was
 * busy) still reports how it got there: CI once saw start_research return with no progress notification at all.
 */
const RUN = { id: 'run-1', status: 'awaiting_approval', awaitingGate: 'plan' } as unknown as RunView;
const LOG: SequencedEvent[] = [
  { seq: 1, data: { type: 'run_created' } as SequencedEvent['data'] },
  {
    seq: 2,
    data: { type: 'step_completed', node: 'plan', iteration: 0, shard: 0, result: { questions: 6 } } as unknown as SequencedEvent['data'],
  },
  { seq: 3, data: { type: 'gate_opened', gate: 'plan', revision: 0 } },
];

function settledClient(): DossierClient {
  return {
    run: async () => RUN,
    follow: async (_runId: string, onEvent: (e: SequencedEvent) => Promise<void>, signal?: AbortSignal) => {
      for (const e of LOG) {
        await onEvent(e);
        if (signal?.aborted) break;
      }
      return RUN;
    },
  } as unknown as DossierClient;
}

function channel() {
  const sent: { progress: number; message: string }[] = [];
  return {
    sent,
    signal: new AbortController().signal,
    progressToken: 7,
    notify: async (p: { progress: number; message: string }) => void sent.push({ progress: p.progress, message: p.message }),
  };
}

describe('followRun', () => {
  it('replays how a just-started run reached a gate that opened before it was first read', async () => {
    const ch = channel();
    const run = await followRun(settledClient(), RUN.id, 60_000, ch, { fromStart: true });
    expect(run.awaitingGate).toBe('plan');
    expect(ch.sent.map((s) => s.progress)).toEqual([2, 3]);
    expect(ch.sent.at(-1)!.message).toBe('gate plan is open (revision 0)');
  });

  it('sends nothing for a run already waiting when a later call only asks for its state', async () => {
    const ch = channel();
    expect((await followRun(settledClient(), RUN.id, 60_000, ch)).awaitingGate).toBe('plan');
    expect(ch.sent).toEqual([]);
  });
});
