import { Body, Controller, Get, Param, Post, UseGuards } from '@nestjs/common';
import { InterventionInput, RunIdParams, type Intervention } from '@dossier/contracts';
import { RunCommands } from '@dossier/workflow';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import { RunLookup } from '../runs/run-lookup';

/** The intervention commands of RunCommands (libs/workflow), as this controller uses them. */
interface InterventionCommands {
  intervene(tenantId: string, runId: string, input: InterventionInput, actor: string): Promise<Intervention>;
  listInterventions(tenantId: string, runId: string): Promise<Intervention[]>;
}

/**
 * Steering a running research loop: queued now, applied by the `moderate` node at the next loop
 * boundary, and recorded in the audit log both times. A terminal run refuses them (409).
 */
@Controller('v1/runs')
@UseGuards(ApiKeyGuard)
export class InterventionsController {
  private readonly commands: InterventionCommands;

  constructor(
    commands: RunCommands,
    private readonly lookup: RunLookup,
  ) {
    this.commands = commands as unknown as InterventionCommands;
  }

  @Post(':id/interventions')
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
