import { createHash } from 'node:crypto';
import { NODE_SERVICE, type NodeName } from '@dossier/contracts';
import type { FakeChatRequest } from '@dossier/testing';
import { sql } from '@dossier/testing';
import type { ChaosRecord } from './chaos';

export interface ModelCallsSummary {
  /** Chat requests the model server received, and those it answered with 200 (each one paid for). */
  requests: number;
  paid: number;
  /** llm_calls rows of the openai engine, and those recorded as answered (ok, invalid or refused). */
  recorded: number;
  recordedAnswered: number;
  /**
   * The same request (same step, same body) paid for again although Dossier had recorded the first answer:
   * money spent twice for nothing. Must be 0.
   */
  paidTwice: number;
  /**
   * The same request paid for again because the process that sent the first one was killed (or Postgres went
   * down) after the server answered and before the answer was recorded. No client of an API without
   * idempotent requests can avoid this; each is matched to the kill or outage that explains it.
   */
  lostInFlight: { explained: number; unexplained: number };
  /** Paid requests with no llm_calls row, rows recorded as answered with no paid request, usage that differs. */
  unrecordedPaid: number;
  recordedNotPaid: number;
  usageMismatches: number;
  examples: string[];
}

type Row = { id: string; step_key: string; outcome: string; tokens_in: number; tokens_out: number };

const ANSWERED = new Set(['ok', 'invalid', 'refused']);

function fingerprint(r: FakeChatRequest): string {
  return createHash('sha256').update(JSON.stringify(r.body)).digest('hex');
}

/**
 * The model server's own log against llm_calls, request by request: in test echo mode each request carries the
 * id of the llm_calls row reserved for it (X-Dossier-Call-Id), so every paid request is matched to its record.
 */
export async function checkModelCalls(
  url: string,
  tenantId: string,
  requests: readonly FakeChatRequest[],
  chaos: ChaosRecord,
): Promise<ModelCallsSummary> {
  const rows = await sql<Row>(
    url,
    "SELECT id, step_key, outcome, tokens_in, tokens_out FROM llm_calls WHERE tenant_id = $1 AND engine = 'openai'",
    [tenantId],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paid = requests.filter((r) => r.outcome === 200);
  const paidByCall = new Map(paid.filter((r) => r.callId).map((r) => [r.callId!, r]));
  const examples: string[] = [];
  const note = (text: string): void => {
    if (examples.length < 20) examples.push(text);
  };

  let unrecordedPaid = 0;
  let usageMismatches = 0;
  for (const r of paid) {
    const row = r.callId ? byId.get(r.callId) : undefined;
    if (!row) {
      unrecordedPaid++;
      note(`paid request of ${r.stepKey} (${r.role}) has no llm_calls row (call id ${r.callId ?? 'none'})`);
    } else if (ANSWERED.has(row.outcome) && (row.tokens_in !== r.usage?.promptTokens || row.tokens_out !== r.usage?.completionTokens)) {
      usageMismatches++;
      note(
        `llm_calls ${row.id}: ${row.tokens_in}/${row.tokens_out} tokens recorded, server reported ${r.usage?.promptTokens}/${r.usage?.completionTokens}`,
      );
    }
  }
  const answeredRows = rows.filter((r) => ANSWERED.has(r.outcome));
  const recordedNotPaid = answeredRows.filter((r) => !paidByCall.has(r.id));
  for (const r of recordedNotPaid.slice(0, 5))
    note(`llm_calls ${r.id} (${r.step_key}) is recorded ${r.outcome} but the server answered no such request`);

  // The same request paid more than once: the first answer recorded (paid twice), or lost with its process.
  let paidTwice = 0;
  const lost = { explained: 0, unexplained: 0 };
  const groups = new Map<string, FakeChatRequest[]>();
  for (const r of paid) {
    const key = `${r.stepKey ?? '?'}|${fingerprint(r)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    group.sort((a, b) => a.receivedAt - b.receivedAt);
    for (let i = 1; i < group.length; i++) {
      const earlier = group.slice(0, i);
      const recordedBefore = earlier.some((e) => {
        const row = e.callId ? byId.get(e.callId) : undefined;
        return row !== undefined && ANSWERED.has(row.outcome);
      });
      if (recordedBefore) {
        paidTwice++;
        note(`request of ${group[i]!.stepKey} (${group[i]!.role}) paid again although its answer was recorded`);
      } else if (earlier.some((e) => explainedByChaos(e, chaos))) {
        lost.explained++;
      } else {
        lost.unexplained++;
        note(
          `request of ${group[i]!.stepKey} (${group[i]!.role}) paid again; the first answer was never recorded and no kill or outage explains it`,
        );
      }
    }
  }
  return {
    requests: requests.length,
    paid: paid.length,
    recorded: rows.length,
    recordedAnswered: answeredRows.length,
    paidTwice,
    lostInFlight: lost,
    unrecordedPaid,
    recordedNotPaid: recordedNotPaid.length,
    usageMismatches,
    examples,
  };
}

/** The answer reached a process that was killed within seconds after, or Postgres went down around then. */
function explainedByChaos(r: FakeChatRequest, chaos: ChaosRecord): boolean {
  const at = r.answeredAt ?? r.receivedAt;
  const node = r.stepKey?.split('.')[1] as NodeName | undefined;
  const service = node ? NODE_SERVICE[node] : undefined;
  if (chaos.kills.some((k) => k.service === service && k.at >= at - 500 && k.at <= at + 5_000)) return true;
  return chaos.outages.some((o) => o.from <= at + 5_000 && o.to >= at - 500);
}
