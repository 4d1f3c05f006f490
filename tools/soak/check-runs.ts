import { sql } from '@dossier/testing';
import type { SubmittedRun } from './submitter';

export interface RunsSummary {
  submitted: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Acknowledged but not finished by the end of the soak: lost, as far as the client can tell. */
  unfinished: number;
  /** Runs in the database that no acknowledged submission accounts for (a retry that made a second run). */
  duplicateRuns: number;
  /** Submissions the gateway refused with a 4xx. */
  rejectedSubmissions: number;
  /** Acknowledged runs sent again with the same Idempotency-Key: how many returned the same run. */
  replays: { checked: number; sameRun: number };
  failures: { runId: string; engine: string; reason: string | null }[];
  unfinishedRuns: { runId: string; status: string; currentNode: string | null }[];
}

export async function checkRuns(url: string, tenantId: string, submitted: SubmittedRun[], rejected: number): Promise<RunsSummary> {
  const rows = await sql<{ id: string; status: string; failure_reason: string | null; current_node: string | null }>(
    url,
    'SELECT id, status, failure_reason, current_node FROM research_runs WHERE tenant_id = $1',
    [tenantId],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const mine = submitted.map((s) => ({ s, row: byId.get(s.runId) }));
  const status = (want: string) => mine.filter((m) => m.row?.status === want);
  const unfinished = mine.filter((m) => !m.row || !['completed', 'failed', 'cancelled'].includes(m.row.status));
  const known = new Set(submitted.map((s) => s.runId));
  return {
    submitted: submitted.length,
    completed: status('completed').length,
    failed: status('failed').length,
    cancelled: status('cancelled').length,
    unfinished: unfinished.length,
    duplicateRuns: rows.filter((r) => !known.has(r.id)).length,
    rejectedSubmissions: rejected,
    replays: { checked: submitted.filter((s) => s.replayChecked).length, sameRun: submitted.filter((s) => s.replayMatched).length },
    failures: [...status('failed'), ...status('cancelled')].map((m) => ({
      runId: m.s.runId,
      engine: m.s.engine,
      reason: m.row!.failure_reason,
    })),
    unfinishedRuns: unfinished.map((m) => ({
      runId: m.s.runId,
      status: m.row?.status ?? 'missing',
      currentNode: m.row?.current_node ?? null,
    })),
  };
}
