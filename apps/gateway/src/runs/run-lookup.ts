import { Injectable } from '@nestjs/common';
import { RunRepository, type RunRow } from '@dossier/db';
import { NotFoundError } from '../common/http-errors';

/** Finds a run of the caller's tenant; another tenant's run is indistinguishable from a missing one. */
@Injectable()
export class RunLookup {
  constructor(private readonly runs: RunRepository) {}

  async get(tenantId: string, runId: string): Promise<RunRow> {
    const run = await this.runs.find(tenantId, runId);
    if (!run) throw new NotFoundError(`Run ${runId} not found`, { details: { runId } });
    return run;
  }
}
