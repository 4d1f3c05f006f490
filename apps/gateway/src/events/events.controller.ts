import { Controller, Get, Headers, Inject, Param, Query, Res, UseGuards, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { RunIdParams, TERMINAL_RUN_STATUSES, type RunStatus } from '@dossier/contracts';
import { RunEventRepository, RunRepository } from '@dossier/db';
import { describeError, redactDeep } from '@dossier/errors';
import { createLogger } from '@dossier/telemetry';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import type { GatewayEnv } from '../gateway-env';
import { GATEWAY_ENV } from '../gateway-tokens';
import { RunLookup } from '../runs/run-lookup';
import { SseWriter } from './sse-writer';

const logger = createLogger('gateway');
const Seq = z.coerce.number().int().min(0).max(2_147_483_647);
export const EventsQuery = z.strictObject({ lastEventId: Seq.optional() });
const BATCH = 500;
/** Events that carry an error text. */
const ERROR_EVENTS: ReadonlySet<string> = new Set(['step_retrying', 'run_failed']);

/**
 * `GET /v1/runs/{id}/events`: the run's durable event log (run_events, ordered by seq) as SSE. The event
 * id is the seq, so a client that reconnects with `Last-Event-ID` gets exactly the events after it: no
 * gap, no duplicate. The stream ends once the run is terminal and every event has been sent.
 */
@Controller('v1/runs')
@UseGuards(ApiKeyGuard)
export class EventsController implements OnModuleDestroy {
  private readonly open = new Set<SseWriter>();

  constructor(
    private readonly lookup: RunLookup,
    private readonly events: RunEventRepository,
    private readonly runs: RunRepository,
    @Inject(GATEWAY_ENV) private readonly env: GatewayEnv,
  ) {}

  @Get(':id/events')
  async stream(
    @CurrentCaller() caller: Caller,
    @Param() params: unknown,
    @Query() rawQuery: unknown,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { id } = parse(RunIdParams, params, 'path');
    const query = parse(EventsQuery, rawQuery, 'query');
    // The header (what EventSource sends on reconnect) wins over the query parameter (for clients that cannot set headers).
    const after = lastEventId !== undefined ? parse(Seq, lastEventId, 'header') : (query.lastEventId ?? 0);
    await this.lookup.get(caller.tenantId, id);
    reply.hijack();
    const sse = new SseWriter(reply.raw);
    sse.open(1_000);
    this.open.add(sse);
    try {
      await this.pump(sse, caller.tenantId, id, after);
    } catch (err) {
      logger.warn({ err: describeError(err), runId: id }, 'event stream ended by an error');
    } finally {
      this.open.delete(sse);
      sse.end();
    }
  }

  /**
   * On shutdown, end every open stream first: an open SSE response would hold the HTTP server open until
   * the grace period ran out. Clients reconnect (to another replica) with Last-Event-ID and lose nothing.
   */
  onModuleDestroy(): void {
    for (const sse of this.open) sse.end();
    this.open.clear();
  }

  private async pump(sse: SseWriter, tenantId: string, runId: string, after: number): Promise<void> {
    let seq = after;
    let lastWrite = Date.now();
    while (!sse.isClosed) {
      const rows = await this.events.list(tenantId, runId, seq, BATCH);
      for (const row of rows) {
        if (sse.isClosed) return;
        seq = row.seq;
        // Error events are redacted on the way out too, for rows stored before secrets were redacted at the source.
        const data = ERROR_EVENTS.has(row.type) ? redactDeep(row.data) : row.data;
        sse.event(row.seq, row.type, { runId, seq: row.seq, at: row.createdAt.toISOString(), data });
      }
      if (rows.length > 0) lastWrite = Date.now();
      if (rows.length === BATCH) continue;
      if (rows.length === 0) {
        const run = await this.runs.find(tenantId, runId);
        // Terminal and nothing left after the last sent seq (a final event is written in the same transaction as the status).
        if (!run || TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
          if ((await this.events.list(tenantId, runId, seq, 1)).length === 0) return;
          continue;
        }
      }
      if (Date.now() - lastWrite >= this.env.SSE_HEARTBEAT_MS) {
        sse.comment('heartbeat');
        lastWrite = Date.now();
      }
      await new Promise((r) => setTimeout(r, this.env.SSE_POLL_MS));
    }
  }
}
