import { sql } from '@dossier/testing';

export interface DuplicateOutputs {
  /** Steps (or, for entities that carry no step key, run·node·iteration groups) whose outputs exist more than once. */
  steps: number;
  byKind: Record<string, number>;
  examples: { kind: string; step: string; copies: number; key: string }[];
}

/**
 * Each query finds outputs that exist more than once for one step: a completed step's checkpoint and
 * `step_completed` event, and the entities a step writes, by their natural key (entities carry no step key,
 * so the step is named by run, node and iteration). Unique constraints already make the rest impossible.
 */
const QUERIES: { kind: string; sql: string }[] = [
  {
    kind: 'checkpoint',
    sql: `SELECT step_key AS step, step_key AS key, count(*) AS copies FROM workflow_checkpoints WHERE tenant_id = $1 GROUP BY step_key HAVING count(*) > 1`,
  },
  {
    kind: 'step_completed event',
    sql: `SELECT run_id || '.' || (data->>'node') || '.' || (data->>'iteration') || '.' || (data->>'shard') AS step, '' AS key, count(*) AS copies
          FROM run_events WHERE tenant_id = $1 AND type = 'step_completed' GROUP BY 1 HAVING count(*) > 1`,
  },
  {
    kind: 'audit run_created/run_completed',
    sql: `SELECT run_id || '.' || kind AS step, kind AS key, count(*) AS copies FROM audit_events
          WHERE tenant_id = $1 AND kind IN ('run_created', 'run_completed') GROUP BY run_id, kind HAVING count(*) > 1`,
  },
  {
    kind: 'perspective',
    sql: `SELECT run_id || '.perspectives.' || revision AS step, name AS key, count(*) AS copies FROM perspectives
          WHERE tenant_id = $1 GROUP BY run_id, revision, name HAVING count(*) > 1`,
  },
  {
    kind: 'research question',
    sql: `SELECT run_id || '.questions.' || iteration AS step, left(text, 80) AS key, count(*) AS copies FROM research_questions
          WHERE tenant_id = $1 GROUP BY run_id, iteration, coalesce(perspective_id::text, ''), coalesce(parent_id::text, ''), text HAVING count(*) > 1`,
  },
  {
    kind: 'source record',
    sql: `SELECT run_id || '.retrieve.' || iteration AS step, canonical_url AS key, count(*) AS copies FROM source_records
          WHERE tenant_id = $1 GROUP BY run_id, iteration, search_plan_id, canonical_url HAVING count(*) > 1`,
  },
  {
    kind: 'claim',
    sql: `SELECT run_id || '.claims.' || iteration AS step, left(statement, 80) AS key, count(*) AS copies FROM claims
          WHERE tenant_id = $1 GROUP BY run_id, iteration, statement HAVING count(*) > 1`,
  },
  {
    kind: 'claim across iterations',
    sql: `SELECT run_id || '.claims' AS step, left(statement, 80) AS key, count(*) AS copies FROM claims
          WHERE tenant_id = $1 GROUP BY run_id, statement HAVING count(DISTINCT iteration) > 1`,
  },
];

export async function checkOutputs(url: string, tenantId: string): Promise<DuplicateOutputs> {
  const byKind: Record<string, number> = {};
  const examples: DuplicateOutputs['examples'] = [];
  const steps = new Set<string>();
  for (const q of QUERIES) {
    const rows = await sql<{ step: string; key: string; copies: string }>(url, q.sql, [tenantId]);
    if (rows.length === 0) continue;
    byKind[q.kind] = rows.length;
    for (const r of rows) {
      steps.add(r.step);
      if (examples.length < 20) examples.push({ kind: q.kind, step: r.step, copies: Number(r.copies), key: r.key });
    }
  }
  return { steps: steps.size, byKind, examples };
}
