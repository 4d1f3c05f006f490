import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  CancelRunBody,
  CreateRunBody,
  FollowUpBody,
  IdempotencyKey,
  ListRunsQuery,
  ReplayRunBody,
  RunArchiveFile,
  RunIdParams,
  type ImportedRunView,
  type RunArchiveExport,
  type RunList,
  type RunOptions,
  type RunView,
  type TenantPolicy,
} from '@dossier/contracts';
import { Prisma, RunRepository, type RunRow } from '@dossier/db';
import { RunViews } from '@dossier/db';
import { FollowUps, packArchive, readArchive, RunArchives, RunCommands, RunQueries, type ReplayLimits } from '@dossier/runs';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import { ConflictError } from '../common/http-errors';
import { applyTenantPolicy } from '../policy/apply-tenant-policy';
import { clampToTenantPolicy } from '../policy/clamp-to-tenant-policy';
import { TenantLimits } from '../limits/tenant-limits';
import { runRequestHash } from './request-hash';

@Controller('v1/runs')
@UseGuards(ApiKeyGuard)
export class RunsController {
  constructor(
    private readonly commands: RunCommands,
    private readonly runs: RunRepository,
    private readonly queries: RunQueries,
    private readonly views: RunViews,
    private readonly archives: RunArchives,
    private readonly limits: TenantLimits,
    private readonly followUps: FollowUps,
  ) {}

  /** 201 with the new run; 200 with the earlier run when the Idempotency-Key was seen before. */
  @Post()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() rawBody: unknown,
    @Headers('idempotency-key') rawKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunView> {
    const body = parse(CreateRunBody, rawBody, 'body');
    const key = rawKey === undefined ? undefined : parse(IdempotencyKey, rawKey, 'header');
    const requestHash = runRequestHash(body);
    if (key) {
      const existing = await this.runs.findByIdempotencyKey(caller.tenantId, key);
      if (existing) return this.replayed(reply, existing, body.question, requestHash);
    }
    const asked = new Set(Object.keys((rawBody as { options?: object }).options ?? {}));
    const options = applyTenantPolicy(body.options ?? parse(CreateRunBody.shape.options.unwrap(), {}, 'body'), caller.policy, asked);
    await this.limits.assertSpendWithin(caller.tenantId, caller.policy);
    try {
      const run = await this.commands.start({
        tenantId: caller.tenantId,
        question: body.question,
        options,
        actor: caller.actor,
        maxRunsInProgress: this.limits.of(caller.policy).runsInProgress,
        ...(key ? { idempotencyKey: key, requestHash } : {}),
      });
      // The run of a concurrent request with this key that committed first comes back here too: same checks as a replay.
      if (key && run.requestHash !== requestHash) return this.replayed(reply, run, body.question, requestHash);
      void reply.status(201).header('location', `/v1/runs/${run.id}`);
      return this.views.one(run);
    } catch (err) {
      // Two requests with the same key raced: the loser returns the winner's run.
      if (key && err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
        const existing = await this.runs.findByIdempotencyKey(caller.tenantId, key);
        if (existing) return this.replayed(reply, existing, body.question, requestHash);
      }
      throw err;
    }
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Query() rawQuery: unknown): Promise<RunList> {
    const q = parse(ListRunsQuery, rawQuery, 'query');
    return this.queries.page(caller.tenantId, q);
  }

  @Get(':id')
  async get(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<RunView> {
    const { id } = parse(RunIdParams, params, 'path');
    return this.queries.run(caller.tenantId, id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@CurrentCaller() caller: Caller, @Param() params: unknown, @Body() rawBody: unknown): Promise<RunView> {
    const { id } = parse(RunIdParams, params, 'path');
    const body = parse(CancelRunBody, rawBody ?? {}, 'body');
    await this.queries.run(caller.tenantId, id);
    await this.commands.cancel(caller.tenantId, id, body.reason ?? `cancelled by ${caller.principalName}`, caller.actor);
    return this.queries.run(caller.tenantId, id);
  }

  @Post(':id/resume')
  @HttpCode(200)
  async resume(@CurrentCaller() caller: Caller, @Param() params: unknown, @Body() rawBody: unknown): Promise<RunView> {
    const { id } = parse(RunIdParams, params, 'path');
    parse(CancelRunBody.pick({}), rawBody ?? {}, 'body');
    await this.queries.run(caller.tenantId, id);
    await this.limits.assertSpendWithin(caller.tenantId, caller.policy);
    await this.commands.resume(caller.tenantId, id, caller.actor, { maxRunsInProgress: this.limits.of(caller.policy).runsInProgress });
    return this.queries.run(caller.tenantId, id);
  }

  /** 201 with a new run replaying this one from its recording (decision 0030); `from` makes it live from that node. */
  @Post(':id/replay')
  async replay(
    @CurrentCaller() caller: Caller,
    @Param() params: unknown,
    @Body() rawBody: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunView> {
    const { id } = parse(RunIdParams, params, 'path');
    const body = parse(ReplayRunBody, rawBody ?? {}, 'body');
    return this.startFrom(caller, id, reply, (limits) => this.commands.replay(caller.tenantId, id, body.from, caller.actor, limits));
  }

  /**
   * 201 with a new run asking `question` from this completed run's sources (decision 0052): its corpus is the collection
   * of the snapshots this run read, its other options this run's, within the tenant's policy as a new run's.
   */
  @Post(':id/follow-ups')
  async followUp(
    @CurrentCaller() caller: Caller,
    @Param() params: unknown,
    @Body() rawBody: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunView> {
    const { id } = parse(RunIdParams, params, 'path');
    const body = parse(FollowUpBody, rawBody, 'body');
    return this.startFrom(caller, id, reply, (limits) => this.followUps.start(caller.tenantId, id, body.question, caller.actor, limits));
  }

  /**
   * A new run made from run `id` (a replay or a follow-up): `id` must be the caller's run (404 otherwise) and the tenant
   * within its spend; the new run's options are under the tenant's policy (`replayPolicy`) and count against its runs
   * in progress. 201 with its location.
   */
  private async startFrom(
    caller: Caller,
    id: string,
    reply: FastifyReply,
    start: (limits: ReplayLimits) => Promise<RunRow>,
  ): Promise<RunView> {
    await this.queries.run(caller.tenantId, id);
    await this.limits.assertSpendWithin(caller.tenantId, caller.policy);
    const run = await start({
      underPolicy: (options) => replayPolicy(options, caller.policy),
      maxRunsInProgress: this.limits.of(caller.policy).runsInProgress,
    });
    void reply.status(201).header('location', `/v1/runs/${run.id}`);
    return this.views.one(run);
  }

  /** The finished run with its recording, as the archive file `dossier export` writes (gzip JSON, base64 here). */
  @Get(':id/archive')
  async archive(@CurrentCaller() caller: Caller, @Param() params: unknown): Promise<RunArchiveExport> {
    const { id } = parse(RunIdParams, params, 'path');
    await this.queries.run(caller.tenantId, id);
    const { archive, summary } = await this.archives.export(caller.tenantId, id);
    return { archive: packArchive(archive).toString('base64'), summary };
  }

  /**
   * 201 with the run an archive file becomes in this tenant, finished, its options within this tenant's policy and
   * what that changed listed in `clamped`; a file that is not a valid archive is a 422 saying why, one too large a 413.
   * The file is read in a worker thread (readArchive), never on this event loop.
   */
  @Post('import')
  async import(
    @CurrentCaller() caller: Caller,
    @Body() rawBody: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ImportedRunView> {
    const body = parse(RunArchiveFile, rawBody, 'body');
    const archive = await readArchive(Buffer.from(body.archive, 'base64'));
    const { options, clamped } = clampToTenantPolicy(archive.run.options, caller.policy);
    const run = await this.archives.import(caller.tenantId, { ...archive, run: { ...archive.run, options } }, caller.actor, clamped);
    void reply.status(201).header('location', `/v1/runs/${run.id}`);
    return { ...(await this.views.one(run)), clamped };
  }

  /**
   * A key reused with a different request body is a client bug, not a retry: refuse it (409) rather than answer
   * with a run that is not what was asked. Runs created before request hashes were stored compare the question.
   */
  private async replayed(reply: FastifyReply, run: RunRow, question: string, requestHash: string): Promise<RunView> {
    const same = run.requestHash !== null ? run.requestHash === requestHash : run.question === question.trim();
    if (!same) {
      throw new ConflictError(`Idempotency-Key already used for run ${run.id} with a different request body`, {
        runId: run.id,
        details: { runId: run.id, reason: 'idempotency_key_reused' },
      });
    }
    void reply.status(200).header('idempotent-replayed', 'true').header('location', `/v1/runs/${run.id}`);
    return this.views.one(run);
  }
}

/**
 * A replay's options under the tenant's policy, as a new run's: the engine and search providers must be allowed (422
 * otherwise: a replay from a node calls them live, at the operator's expense), budgets and counts the original had
 * are lowered to the caps rather than refused (the caller did not ask for them), required gates are required.
 */
function replayPolicy(options: RunOptions, policy: TenantPolicy): RunOptions {
  const within = clampToTenantPolicy(options, policy).options;
  return applyTenantPolicy({ ...within, engine: options.engine, searchProviders: options.searchProviders }, policy);
}
