import type { ApiClient } from './api-client';

export interface AuditSummary {
  runs: number;
  verified: number;
  broken: { runId: string; verification: unknown }[];
}

/** Each run's hash-chained audit log, verified by the gateway (GET /v1/runs/{id}/audit). */
export async function checkAudit(api: ApiClient, runIds: string[], until: number): Promise<AuditSummary> {
  const summary: AuditSummary = { runs: runIds.length, verified: 0, broken: [] };
  for (const runId of runIds) {
    const reply = await api.persist('GET', `/v1/runs/${runId}/audit`, undefined, {}, until);
    const verification = (reply.json as { verification?: { ok?: boolean } } | undefined)?.verification;
    if (reply.status === 200 && verification?.ok === true) summary.verified++;
    else summary.broken.push({ runId, verification: verification ?? `${reply.status} ${reply.text.slice(0, 200)}` });
  }
  return summary;
}
