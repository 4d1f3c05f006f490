import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { SourceTextParams, type SourceTextView } from '@dossier/contracts';
import { RunQueries } from '@dossier/runs';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';

/** The stored text of a source the tenant's runs read: what a citation's excerpt is a slice of. */
@Controller('v1/sources')
@UseGuards(ApiKeyGuard)
export class SourcesController {
  constructor(private readonly queries: RunQueries) {}

  @Get(':id')
  async text(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<SourceTextView> {
    const { id } = parse(SourceTextParams, params, 'path');
    return this.queries.sourceText(caller.tenantId, id);
  }
}
