import { Body, Controller, Get, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  CreateShareBody,
  REPORT_MEDIA_TYPES,
  RunIdParams,
  ShareIdParams,
  SharedReportParams,
  SourceTextParams,
  type CreatedShareView,
  type SharedReportView,
  type ShareView,
  type SourceTextView,
} from '@dossier/contracts';
import { ReportShares, type SharedRun } from '@dossier/runs';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import { CurrentShare, ShareTokenGuard } from './share-token.guard';

/** Where the web app opens a link: the token rides in the fragment, which browsers never send to a server or in a Referer. */
export const sharedPagePath = (token: string) => `/shared#${token}`;

/**
 * A run's share links, for the tenant's members and admins (a viewer key reads the list but cannot create or revoke
 * one: handing access outside the tenant is a change, decision 0051).
 */
@Controller('v1/runs')
@UseGuards(ApiKeyGuard)
export class SharesController {
  constructor(private readonly shares: ReportShares) {}

  @Post(':id/shares')
  async create(
    @CurrentCaller() caller: Caller,
    @Param() params: unknown,
    @Body() rawBody: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatedShareView> {
    const { id } = parse(RunIdParams, params, 'path');
    const body = parse(CreateShareBody, rawBody ?? {}, 'body');
    const { token, view } = await this.shares.create(caller.tenantId, id, body.expiresInHours, caller.actor);
    void reply.status(201).header('cache-control', 'no-store');
    return { ...view, token, path: sharedPagePath(token) };
  }

  @Get(':id/shares')
  async list(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<{ items: ShareView[] }> {
    const { id } = parse(RunIdParams, params, 'path');
    return { items: await this.shares.list(caller.tenantId, id) };
  }

  @Post(':id/shares/:shareId/revoke')
  @HttpCode(200)
  async revoke(@CurrentCaller() caller: Caller, @Param() params: unknown, @Body() rawBody: unknown): Promise<ShareView> {
    const { id, shareId } = parse(ShareIdParams, params, 'path');
    parse(CreateShareBody.pick({}), rawBody ?? {}, 'body');
    return this.shares.revoke(caller.tenantId, id, shareId, caller.actor);
  }
}

/** What a share link opens: one run's report, its figures and the stored text of its sources (docs/decisions/0051). */
@Controller('v1/shared')
@UseGuards(ShareTokenGuard)
export class SharedReportController {
  constructor(private readonly shares: ReportShares) {}

  @Get()
  summary(@CurrentShare() shared: SharedRun): Promise<SharedReportView> {
    return this.shares.summary(shared);
  }

  @Get('report.:format')
  async report(@CurrentShare() shared: SharedRun, @Param() params: unknown, @Res() reply: FastifyReply): Promise<void> {
    const { format } = parse(SharedReportParams, params, 'path');
    const content = await this.shares.report(shared, format);
    void reply
      .status(200)
      .header('content-type', REPORT_MEDIA_TYPES[format])
      .header('content-disposition', `inline; filename="report-${shared.runId}.${format}"`)
      // Not kept by a shared cache: the link can be revoked, and then the report must stop being served.
      .header('cache-control', 'private, no-store')
      .send(content);
  }

  @Get('sources/:id')
  sourceText(@CurrentShare() shared: SharedRun, @Param() params: unknown): Promise<SourceTextView> {
    const { id } = parse(SourceTextParams, params, 'path');
    return this.shares.sourceText(shared, id);
  }
}
