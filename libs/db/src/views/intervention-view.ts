import { Intervention, InterventionInput, InterventionStatus } from '@dossier/contracts';
import type { InterventionRow } from '../repositories/intervention.repository';
import { StageStateError } from '@dossier/errors';

/** The stored input of an intervention row (its `type` column and `payload`), validated again on the way out. */
export function interventionInput(row: InterventionRow): InterventionInput {
  const parsed = InterventionInput.safeParse({ ...(row.payload as Record<string, unknown>), type: row.type });
  if (!parsed.success)
    throw new StageStateError(`Stored intervention ${row.id} does not match the contract: ${parsed.error.message}`, { runId: row.runId });
  return parsed.data;
}

/** An intervention as the API returns it. */
export function interventionView(row: InterventionRow): Intervention {
  return {
    id: row.id,
    runId: row.runId,
    input: interventionInput(row),
    status: InterventionStatus.parse(row.status),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    appliedIteration: row.appliedIteration,
    appliedAt: row.appliedAt?.toISOString() ?? null,
  };
}
