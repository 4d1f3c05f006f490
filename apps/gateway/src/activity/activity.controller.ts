import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { RunIdParams, type RunActivityView } from '@dossier/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import { RunLookup } from '../runs/run-lookup';
import { RunActivityQuery } from './run-activity.query';

/** What a run's research steps are working on: the live view's story (queries, sources read, claims, contradictions). */
@Controller('v1/runs')
@UseGuards(ApiKeyGuard)
export class ActivityController {
  constructor(
    private readonly lookup: RunLookup,
    private readonly activity: RunActivityQuery,
  ) {}

  @Get(':id/activity')
  async of(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<RunActivityView> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.lookup.get(caller.tenantId, id);
    return this.activity.of(caller.tenantId, id);
  }
}
