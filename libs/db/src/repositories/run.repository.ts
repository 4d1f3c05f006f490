import { Injectable } from '@nestjs/common';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@dossier/contracts';
import { Prisma, PrismaService, type Db } from '../prisma.service';

export type RunRow = Prisma.ResearchRunGetPayload<object>;

/**
 * Every column of research_runs under its RunRow name, for the one raw query that locks and reads the row. The
 * type is a Record over RunRow's keys: a column added to the model fails the typecheck here until it is listed.
 */
const RUN_COLUMN_NAMES: Record<keyof RunRow, string> = {
  id: 'id',
  tenantId: 'tenant_id',
  question: 'question',
  status: 'status',
  options: 'options',
  workflowVersion: 'workflow_version',
  currentNode: 'current_node',
  awaitingGate: 'awaiting_gate',
  budgetExhausted: 'budget_exhausted',
  stopReason: 'stop_reason',
  failureReason: 'failure_reason',
  idempotencyKey: 'idempotency_key',
  requestHash: 'request_hash',
  deadlineAt: 'deadline_at',
  createdAt: 'created_at',
  queueAt: 'queue_at',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
  eventSeq: 'event_seq',
  hostedBy: 'hosted_by',
  modelEndpoint: 'model_endpoint',
  embeddingsFallback: 'embeddings_fallback',
};
/** Columns of research_runs under their RunRow names, as a constant built from the names above: no input reaches it. */
function runColumns(fields: readonly (keyof RunRow)[]): Prisma.Sql {
  return Prisma.raw(fields.map((field) => `"${RUN_COLUMN_NAMES[field]}" AS "${field}"`).join(', '));
}

export const RUN_COLUMNS = runColumns(Object.keys(RUN_COLUMN_NAMES) as (keyof RunRow)[]);

/**
 * What a step reads of its run, returned by its start statement (docs/decisions/0133): the handler's view of the run
 * (`StepRun`), whether this worker may run it (host, model endpoint) and whether it ended. Not its bookkeeping (event
 * counter, timestamps but the creation, idempotency, failure), which the driver would parse on every step for nothing.
 */
const STEP_RUN_FIELDS = [
  'id',
  'tenantId',
  'question',
  'status',
  'options',
  'workflowVersion',
  'createdAt',
  'queueAt',
  'stopReason',
  'budgetExhausted',
  'embeddingsFallback',
  'hostedBy',
  'modelEndpoint',
] as const satisfies readonly (keyof RunRow)[];
export type StepRunRow = Pick<RunRow, (typeof STEP_RUN_FIELDS)[number]>;
export const STEP_RUN_COLUMNS = runColumns(STEP_RUN_FIELDS);

/**
 * What of a run can have changed while one of its steps ran, as the step's completion reads it under the run lock
 * (docs/decisions/0133): whether it ended or was cancelled, its budget, its host. The rest of what the transition reads
 * (ids, options, graph version) does not change after the run is created, and comes from the step's start statement.
 */
export const RUN_STATE_FIELDS = ['status', 'budgetExhausted', 'hostedBy'] as const satisfies readonly (keyof RunRow)[];
export type RunStateRow = Pick<RunRow, (typeof RUN_STATE_FIELDS)[number]>;
export const RUN_STATE_COLUMNS = runColumns(RUN_STATE_FIELDS);

/**
 * How far apart one tenant's runs in progress are placed in the step queues (docs/decisions/0162): about a run's share
 * of the services while others wait, so a batch is served as if it had been submitted one run a minute.
 */
export const QUEUE_SPACING_MS = 60_000;

@Injectable()
export class RunRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(tx: Db, data: Prisma.ResearchRunUncheckedCreateInput): Promise<RunRow> {
    return tx.researchRun.create({ data });
  }

  /**
   * One tenant's run starts take turns, to the end of the caller's transaction: the runs-in-progress limit's count and
   * a new run's place (`queuePlace`) see every start of the tenant committed before this one (docs/decisions/0162).
   */
  async lockTenantStarts(tx: Db, tenantId: string): Promise<void> {
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext('dossier.runs-in-progress'), hashtext(${tenantId}))`;
  }

  /**
   * A new run's place in the step queues (docs/decisions/0162): its creation time `at`, or QUEUE_SPACING after the
   * tenant's latest place among its runs in progress, whichever is later. A tenant's batch is placed a minute apart,
   * run by run, so another tenant's run started during the batch goes ahead of the batch's later runs instead of behind
   * them all; a tenant with nothing in progress is placed at its creation. Called under `lockTenantStarts`, so two
   * starts of one tenant at the same moment are placed one after the other.
   */
  async queuePlace(tx: Db, tenantId: string, at: Date): Promise<Date> {
    const [row] = await tx.$queryRaw<{ last: Date | null }[]>`
      SELECT max(queue_at) AS last FROM research_runs
       WHERE tenant_id = ${tenantId}::uuid AND status NOT IN (${Prisma.join(TERMINAL_RUN_STATUSES)})`;
    const next = row?.last ? row.last.getTime() + QUEUE_SPACING_MS : -Infinity;
    return next > at.getTime() ? new Date(next) : at;
  }

  find(tenantId: string, runId: string, db: Db = this.prisma): Promise<RunRow | null> {
    return db.researchRun.findFirst({ where: { id: runId, tenantId } });
  }

  findByIdempotencyKey(tenantId: string, key: string, db: Db = this.prisma): Promise<RunRow | null> {
    return db.researchRun.findFirst({ where: { tenantId, idempotencyKey: key } });
  }

  /**
   * Locks the run row for the rest of the transaction. Every transaction that changes a run's state
   * (step completion, gate decision, cancel, event or audit append) takes this lock first, so they
   * serialize per run: joins see every finished shard, and event and audit sequences have no gaps.
   */
  async lock(tx: Db, tenantId: string, runId: string): Promise<RunRow | null> {
    // One statement locks and reads the row (Prisma has no FOR UPDATE; this was a lock and then a read).
    const rows = await tx.$queryRaw<RunRow[]>`
      SELECT ${RUN_COLUMNS} FROM research_runs WHERE id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE`;
    return rows[0] ?? null;
  }

  /**
   * The first model step of a run records its worker's endpoint; every later one reads it (docs/decisions/0076). One
   * statement: sets the endpoint unless one is there, and returns the run's endpoint either way.
   */
  async recordModelEndpoint(tenantId: string, runId: string, endpoint: Prisma.InputJsonValue): Promise<unknown> {
    const rows = await this.prisma.$queryRaw<{ endpoint: unknown }[]>`
      UPDATE research_runs SET model_endpoint = COALESCE(model_endpoint, ${JSON.stringify(endpoint)}::jsonb)
      WHERE id = ${runId}::uuid AND tenant_id = ${tenantId}::uuid RETURNING model_endpoint AS endpoint`;
    return rows[0]?.endpoint ?? null;
  }

  update(tx: Db, tenantId: string, runId: string, data: Prisma.ResearchRunUncheckedUpdateManyInput): Promise<unknown> {
    return tx.researchRun.updateMany({ where: { id: runId, tenantId }, data });
  }

  list(tenantId: string, status?: RunStatus, db: Db = this.prisma): Promise<RunRow[]> {
    return db.researchRun.findMany({ where: { tenantId, ...(status ? { status } : {}) }, orderBy: { createdAt: 'desc' }, take: 100 });
  }

  /**
   * One page of a tenant's runs, newest first, after the keyset cursor (created_at, id) of the last row
   * of the previous page: stable under concurrent inserts, unlike an offset.
   */
  page(
    tenantId: string,
    opts: { status?: RunStatus; q?: string; limit: number; after?: { createdAt: Date; id: string } },
    db: Db = this.prisma,
  ): Promise<RunRow[]> {
    const after = opts.after;
    return db.researchRun.findMany({
      where: {
        tenantId,
        ...(opts.status ? { status: opts.status } : {}),
        ...(opts.q ? { question: { contains: opts.q, mode: 'insensitive' as const } } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: opts.limit,
    });
  }

  /** Conductor sweep (all tenants, by design): active runs whose wall-time deadline has passed. */
  pastDeadline(now: Date, db: Db = this.prisma): Promise<RunRow[]> {
    return db.researchRun.findMany({
      where: { status: { in: ['running', 'awaiting_approval'] }, deadlineAt: { lt: now }, budgetExhausted: null },
      take: 100,
    });
  }
}
