import type { Db } from '../prisma.service';

/**
 * Locks the run's row for the rest of the transaction; false when the run does not exist. Taking it again in
 * a transaction that holds it already costs one query and never waits. Every change of a run's state and
 * every append to its numbered sequences (run_events.seq, audit_events.seq) happens under it, so two
 * appenders never compute the same next number.
 */
export async function lockRunRow(tx: Db, tenantId: string, runId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM research_runs WHERE id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE`;
  return rows.length > 0;
}
