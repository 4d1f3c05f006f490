import type { ApiClient } from './api-client';
import type { Random } from './random';

export interface SubmittedRun {
  index: number;
  runId: string;
  idempotencyKey: string;
  engine: 'offline' | 'openai';
  /** POSTs it took until the gateway acknowledged the run. */
  attempts: number;
  /** The same request sent again after the acknowledgement returned the same run (or not). */
  replayChecked: boolean;
  replayMatched: boolean;
}

const QUESTIONS = [
  "What caused the decline of Lake Varen's water level, and how large was it?",
  'How did irrigation withdrawals around Lake Varen change between 2014 and 2024?',
  "What role did the Brennmoor hydro releases play in Lake Varen's water level?",
  'How do the regional water authority and the university disagree about Lake Varen?',
  "What do the climate office's figures say about rainfall in the Varen basin?",
  'Which measures were proposed to restore the level of Lake Varen?',
];

/**
 * Submits runs through the gateway as a careful client does: each with an Idempotency-Key, retried across
 * refused connections, resets and 5xx (the gateway may be killed mid-request) until acknowledged. A run counts
 * as submitted only then. Some acknowledged runs are sent again, which must return the same run.
 */
export class Submitter {
  readonly submitted: SubmittedRun[] = [];
  /** Requests the gateway answered with a 4xx other than 408/429: the client's bug or the gateway's. */
  readonly rejected: { index: number; status: number; body: string }[] = [];

  constructor(
    private readonly api: ApiClient,
    private readonly random: Random,
    private readonly seed: number,
    private readonly modelEvery: number,
  ) {}

  async submit(index: number, until: number): Promise<SubmittedRun | undefined> {
    const engine = this.modelEvery > 0 && index % this.modelEvery === this.modelEvery - 1 ? 'openai' : 'offline';
    const idempotencyKey = `soak-${this.seed}-${index}`;
    const body = {
      question: QUESTIONS[index % QUESTIONS.length]!,
      options: {
        engine,
        collection: 'soak',
        perspectives: 1 + (index % 2),
        maxIterations: 1,
        gates: { plan: 'auto', outline: 'auto', publish: 'auto' },
      },
    };
    const headers = { 'idempotency-key': idempotencyKey };
    const reply = await this.api.persist('POST', '/v1/runs', body, headers, until);
    const runId = (reply.json as { id?: string } | undefined)?.id;
    if ((reply.status !== 201 && reply.status !== 200) || !runId) {
      this.rejected.push({ index, status: reply.status, body: reply.text.slice(0, 500) });
      return undefined;
    }
    const run: SubmittedRun = {
      index,
      runId,
      idempotencyKey,
      engine,
      attempts: reply.attempts,
      replayChecked: false,
      replayMatched: false,
    };
    this.submitted.push(run);
    if (this.random.next() < 0.3) {
      const again = await this.api.persist('POST', '/v1/runs', body, headers, until).catch(() => undefined);
      if (again) {
        run.replayChecked = true;
        run.replayMatched = again.status === 200 && (again.json as { id?: string } | undefined)?.id === runId;
      }
    }
    return run;
  }
}
