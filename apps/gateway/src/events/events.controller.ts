import { Controller, Get, Headers, Inject, Param, Query, Res, UseGuards, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { RunIdParams, safeText, TERMINAL_RUN_STATUSES, type RunStatus } from '@dossier/contracts';
import { RunEventRepository, RunRepository } from '@dossier/db';
import { describeError, redactDeep } from '@dossier/errors';
import { createLogger } from '@dossier/telemetry';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { CurrentCaller, type Caller } from '../auth/identity';
import { parse } from '../common/parse';
import type { GatewayEnv } from '../gateway-env';
import { GATEWAY_ENV } from '../gateway-tokens';
import { EventStreamLeases } from '../limits/event-stream-leases';
import { TenantLimits } from '../limits/tenant-limits';
import { RunLookup } from '../runs/run-lookup';
import { RunEventFeed } from './run-event-feed';
import { SseWriter } from './sse-writer';

const logger = createLogger('gateway');
/**
 * An event's seq as a client sends it back (`Last-Event-ID`, `?lastEventId=`): decimal digits only. A coercing
 * number parse read `0x10` as 16 and ` 1` as 1, so a malformed id resumed somewhere the client never was.
 */
const Seq = safeText()
  .regex(/^[0-9]{1,10}$/, 'decimal digits only (the id of an event this stream sent)')
  .transform(Number)
  .pipe(z.int().min(0).max(2_147_483_647));
export const EventsQuery = z.strictObject({ lastEventId: Seq.optional() });
const BATCH = 500;
/** Events that carry an error text. */
const ERROR_EVENTS: ReadonlySet<string> = new Set(['step_retrying', 'run_failed']);
/** Events written with a terminal run status: the stream then checks whether the run is over. */
const TERMINAL_EVENTS: ReadonlySet<string> = new Set(['run_completed', 'run_failed', 'run_cancelled']);

/**
 * `GET /v1/runs/{id}/events`: the run's durable event log (run_events, ordered by seq) as SSE, live through
 * Postgres LISTEN/NOTIFY (RunEventFeed). The event id is the seq, so a client that reconnects with `Last-Event-ID` gets exactly the events after it: no
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
    private readonly feed: RunEventFeed,
    private readonly leases: EventStreamLeases,
    private readonly limits: TenantLimits,
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
    // Taken before the stream opens, so a key over its limit gets a plain 429 (issue 30).
    const lease = await this.leases.acquire(caller.keyId, this.limits.of(caller.policy).eventStreamsPerKey);
    reply.hijack();
    const sse = new SseWriter(reply.raw);
    sse.open(1_000);
    this.open.add(sse);
    try {
      await this.pump(sse, reply, caller.tenantId, id, after);
    } catch (err) {
      logger.warn({ err: describeError(err), runId: id }, 'event stream ended by an error');
    } finally {
      this.open.delete(sse);
      sse.end();
      await lease.release().catch((err: unknown) => logger.warn({ err: describeError(err), runId: id }, 'event stream lease not released'));
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

  /**
   * Sends the run's events after `after`, then each new one as its commit is notified (RunEventFeed): no query
   * runs while nothing happens. The subscription is in place before the first read, so an event committed
   * between that read and the wait still wakes the stream; a wake-up re-reads from the last sent seq, so a
   * notification that carries nothing new, or several folded into one, is harmless.
   */
  private async pump(sse: SseWriter, reply: FastifyReply, tenantId: string, runId: string, after: number): Promise<void> {
    let seq = after;
    const wake = new Wakeup();
    const unsubscribe = await this.feed.subscribe(runId, (lastSeq) => {
      if (lastSeq === 0 || lastSeq > seq) wake.fire();
    });
    reply.raw.on('close', () => wake.fire());
    try {
      let checkStatus = true;
      while (!sse.isClosed) {
        const rows = await this.events.list(tenantId, runId, seq, BATCH);
        for (const row of rows) {
          if (sse.isClosed) return;
          seq = row.seq;
          if (TERMINAL_EVENTS.has(row.type)) checkStatus = true;
          // Error events are redacted on the way out too, for rows stored before secrets were redacted at the source.
          const data = ERROR_EVENTS.has(row.type) ? redactDeep(row.data) : row.data;
          sse.event(row.seq, row.type, { runId, seq: row.seq, at: row.createdAt.toISOString(), data });
        }
        if (rows.length === BATCH) continue;
        // At the start and after a final event: a terminal run with nothing left after the last sent seq ends the
        // stream (its final event is written in the same transaction as its status).
        if (checkStatus) {
          checkStatus = false;
          const run = await this.runs.find(tenantId, runId);
          if (!run || TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
            if ((await this.events.list(tenantId, runId, seq, 1)).length === 0) return;
            continue;
          }
        }
        while (!sse.isClosed && !(await wake.wait(this.env.SSE_HEARTBEAT_MS))) sse.comment('heartbeat');
      }
    } finally {
      unsubscribe();
    }
  }
}

/** One pending wake-up: `fire` before `wait` is kept, so a notification between a read and the wait is not lost. */
class Wakeup {
  private pending = false;
  private resolve?: () => void;

  fire(): void {
    this.pending = true;
    this.resolve?.();
  }

  /** True when woken, false when `ms` passed first. */
  wait(ms: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.resolve = undefined;
        resolve(false);
      }, ms);
      this.resolve = () => {
        clearTimeout(timer);
        this.resolve = undefined;
        this.pending = false;
        resolve(true);
      };
    });
  }
}
