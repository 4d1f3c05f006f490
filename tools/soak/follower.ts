import { TERMINAL_RUN_STATUSES } from '@dossier/contracts';
import type { ApiClient } from './api-client';
import { sleep } from './abortable-sleep';
import type { Random } from './random';

export interface FollowedRun {
  runId: string;
  /** Every event received, in order of arrival: (seq, type). */
  received: { seq: number; type: string }[];
  connections: number;
  /** Connections this client dropped on purpose (then resumed with Last-Event-ID). */
  drops: number;
  /** Connections that broke under it (gateway killed, reset) or could not be opened. */
  broken: number;
  finished: boolean;
}

/**
 * Follows one run's event stream from its first event to its end, as the CLI does: on any break it reconnects
 * with Last-Event-ID set to the last event it received. It also drops its own connection at random moments,
 * so resumption is exercised on purpose, not only when the chaos loop kills the gateway.
 */
export class Follower {
  readonly state: FollowedRun;

  constructor(
    private readonly api: ApiClient,
    runId: string,
    private readonly random: Random,
  ) {
    this.state = { runId, received: [], connections: 0, drops: 0, broken: 0, finished: false };
  }

  async follow(stop: AbortSignal): Promise<FollowedRun> {
    while (!stop.aborted) {
      const ended = await this.connect(stop);
      if (ended === 'server' && (await this.runIsTerminal(stop))) {
        this.state.finished = true;
        break;
      }
      // A broken or dropped stream: back a little, then resume after the last event received.
      await sleep(ended === 'dropped' ? this.random.int(50, 500) : this.random.int(200, 1_000), stop);
    }
    return this.state;
  }

  /** One connection: 'server' when the gateway ended the stream, 'dropped' when we did, 'broken' otherwise. */
  private async connect(stop: AbortSignal): Promise<'server' | 'dropped' | 'broken'> {
    const controller = new AbortController();
    const onStop = (): void => controller.abort();
    stop.addEventListener('abort', onStop);
    const dropAfterMs = this.random.next() < 0.5 ? this.random.int(300, 6_000) : undefined;
    const dropTimer = dropAfterMs === undefined ? undefined : setTimeout(() => controller.abort('drop'), dropAfterMs);
    const last = this.state.received.at(-1)?.seq;
    this.state.connections++;
    try {
      const res = await fetch(`${this.api.base}/v1/runs/${this.state.runId}/events`, {
        headers: {
          authorization: `Bearer ${this.api.key}`,
          accept: 'text/event-stream',
          ...(last !== undefined ? { 'last-event-id': String(last) } : {}),
        },
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        await res.body?.cancel().catch(() => undefined);
        this.state.broken++;
        return 'broken';
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'server';
        buffer += decoder.decode(value, { stream: true });
        let sep: number;
        while ((sep = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, sep);
          buffer = buffer.slice(sep + 2);
          const fields: Record<string, string> = {};
          for (const line of frame.split('\n')) {
            const i = line.indexOf(':');
            if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1).replace(/^ /, '');
          }
          if (fields['id'] !== undefined) this.state.received.push({ seq: Number(fields['id']), type: fields['event'] ?? 'message' });
        }
      }
    } catch {
      if (controller.signal.reason === 'drop') {
        this.state.drops++;
        return 'dropped';
      }
      if (!stop.aborted) this.state.broken++;
      return 'broken';
    } finally {
      clearTimeout(dropTimer);
      stop.removeEventListener('abort', onStop);
    }
  }

  /** The server ends a stream when the run is over, and also when it shuts down: only the run's status tells. */
  private async runIsTerminal(stop: AbortSignal): Promise<boolean> {
    while (!stop.aborted) {
      const reply = await this.api.call('GET', `/v1/runs/${this.state.runId}`);
      if (!(reply instanceof Error) && reply.status === 200) {
        return (TERMINAL_RUN_STATUSES as readonly string[]).includes((reply.json as { status: string }).status);
      }
      await sleep(500, stop);
    }
    return false;
  }
}
