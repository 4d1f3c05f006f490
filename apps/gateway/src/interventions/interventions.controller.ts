import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { InterventionInput, RunIdParams, type Intervention } from '@dossier/contracts';
import { RunCommands } from '@dossier/runs';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import { RunLookup } from '../runs/run-lookup';

/**
 * Steering a running research loop: queued now, applied by the `moderate` node at the next loop
 * boundary, and recorded in the audit log both times. A terminal run refuses them (409).
 */
@Controller('v1/runs')
@UseGuards(ApiKeyGuard)
export class InterventionsController {
  constructor(
    private readonly commands: RunCommands,
    private readonly lookup: RunLookup,
  ) {}

  @Post(':id/interventions')
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Param() params: unknown, @Body() rawBody: unknown): Promise<Intervention> {
    const { id } = parse(RunIdParams, params, 'path');
    const input = parse(InterventionInput, rawBody, 'body');
    await this.lookup.get(caller.tenantId, id);
    return this.commands.intervene(caller.tenantId, id, input, caller.actor);
  }

  @Get(':id/interventions')
  async list(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<{ items: Intervention[] }> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.lookup.get(caller.tenantId, id);
    return { items: await this.commands.listInterventions(caller.tenantId, id) };
  }
}
