import { NODES, type RunEventData } from '@dossier/contracts';

/** A node's label from the node table (libs/contracts NODES); a node of another table (a test's) by its name. */
function nodeLabel(node: string): string {
  return NODES.has(node) ? NODES.rows[node].label : node;
}

/** A figure for a person: whole numbers as they are, others to two decimals (`0.65`, not `0.6498333333333334`). */
export function rounded(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/**
 * The progress line of one run event (`null`: nothing to say). `repeats` counts completions of a node within an
 * iteration, so fan-out shards and repair rounds show as `#2`, `#3`.
 */
export function progressLine(e: RunEventData, repeats: Map<string, number>): string | null {
  switch (e.type) {
    case 'step_completed': {
      const key = `${e.node}.${e.iteration}`;
      const n = (repeats.get(key) ?? 0) + 1;
      repeats.set(key, n);
      const detail = Object.entries(e.result)
        .map(([k, v]) => `${k} ${typeof v === 'number' ? rounded(v) : String(v)}`)
        .join(', ');
      return `iteration ${e.iteration}  ${nodeLabel(e.node)}${e.shard > 0 || n > 1 ? ` #${n}` : ''}  ${detail}`;
    }
    case 'gate_opened':
      return `gate ${e.gate} is open (revision ${e.revision})`;
    case 'research_stopped':
      return `research stopped after iteration ${e.iteration}: ${e.reason.replaceAll('_', ' ')}`;
    case 'intervention_queued':
      return `intervention queued: ${e.intervention.replaceAll('_', ' ')}`;
    case 'intervention_applied':
      return `iteration ${e.iteration}  intervention applied: ${e.intervention.replaceAll('_', ' ')}`;
    case 'intervention_discarded':
      return `intervention discarded (${e.intervention.replaceAll('_', ' ')}): ${e.reason}`;
    case 'run_failed':
      return `run failed${e.node ? ` at ${e.node}` : ''}: ${e.error}`;
    case 'step_retrying':
      return `${e.node} attempt ${e.attempt} failed, retrying: ${e.error}`;
    case 'budget_exhausted':
      return `the ${e.budget.replace('_', ' ')} budget ran out: research stops at the end of this iteration`;
    case 'run_created':
    case 'step_started':
    case 'gate_decided':
    case 'run_completed':
    case 'run_cancelled':
    case 'run_resumed':
      return null;
  }
}
