import { Inject, Injectable } from '@nestjs/common';
import {
  InterventionInput,
  RunOptions,
  TERMINAL_RUN_STATUSES,
  type ApprovalDecision,
  type GateName,
  type Intervention,
  type RunOptionsInput,
  type RunStatus,
} from '@dossier/contracts';
import {
  ApprovalRepository,
  AuditRepository,
  InterventionRepository,
  PrismaService,
  RecordingRepository,
  ResearchRepository,
  RunEventRepository,
  RunRepository,
  interventionView,
  type Prisma,
  type RunRow,
} from '@dossier/db';
import { GateNotOpenError, RunNotFoundError, RunStateError, TenantLimitError, ValidationError } from '@dossier/errors';
import {
  AuditLog,
  describeEndpoint,
  HostLock,
  OutboxSender,
  Reconciler,
  sameEndpoint,
  storedEndpoint,
  TransitionWriter,
  WORKFLOW_GRAPHS,
  WORKFLOW_OPTIONS,
  type WorkflowGraphs,
  type WorkflowOptions,
} from '@dossier/workflow';
import { GateEdits, isEmptyDiff } from './gate-edits';

export interface StartRunInput {
  tenantId: string;
  question: string;
  options?: RunOptionsInput;
  /** A key the tenant already used makes `start` throw Prisma's P2002; the caller looks the run up and replays it. */
  idempotencyKey?: string;
  /** Hash of the canonical request that carried the idempotency key, stored with the run (a reuse with another body is refused). */
  requestHash?: string;
  actor: string;
  /** Refuse the start (TenantLimitError, 429) when the tenant already has this many runs not finished (its policy's limit). */
  maxRunsInProgress?: number;
}

/** What a replay is started under: the tenant's policy over its options, and its limit on runs in progress. */
export interface ReplayLimits {
  underPolicy?: (options: RunOptions) => RunOptions;
  maxRunsInProgress?: number;
}

const IN_PROGRESS: readonly RunStatus[] = ['queued', 'running', 'awaiting_approval'];
/** A start that takes the tenant's admission lock may queue behind the tenant's other starts (see `start`). */
const ADMISSION_TRANSACTION = { maxWait: 15_000, timeout: 20_000 };

/**
 * The commands that move a run from outside a step: start, replay, gate decisions, interventions, cancel, resume.
 * The engine decides where the run goes (`TransitionWriter.routeEvent`); these check who may ask and record it.
 */
@Injectable()
export class RunCommands {
  constructor(
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly events: RunEventRepository,
    private readonly approvals: ApprovalRepository,
    private readonly interventions: InterventionRepository,
    private readonly research: ResearchRepository,
    private readonly audit: AuditLog,
    private readonly transitions: TransitionWriter,
    private readonly sender: OutboxSender,
    private readonly reconciler: Reconciler,
    @Inject(WORKFLOW_GRAPHS) private readonly workflows: WorkflowGraphs,
    private readonly edits: GateEdits,
    private readonly recordings: RecordingRepository,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
    private readonly hosts: HostLock,
    private readonly auditRows: AuditRepository,
  ) {}

  /** This process's host id (docs/decisions/0075): the runs it starts or resumes are its own; null: the deployment. */
  private get host(): string | null {
    return this.options.host ?? null;
  }

  async start(input: StartRunInput): Promise<RunRow> {
    const question = input.question.trim();
    if (question.length === 0) throw new ValidationError('The research question is empty');
    const parsed = RunOptions.safeParse(input.options ?? {});
    if (!parsed.success) {
      throw new ValidationError(`Invalid run options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    const options = parsed.data;
    // With an idempotency key, the unique (tenant_id, idempotency_key) decides between concurrent starts: the
    // insert of a key another start committed fails with P2002 and this transaction rolls back whole; the
    // caller replays the winner's run (the gateway does). A read of the key here, before the insert, would
    // return the winner's run as if this call had created it (docs/decisions/0012).
    // A tenant already at its limit is refused by one unlocked count, holding no connection and no lock; the count is
    // taken again under the tenant's lock before a run is admitted. A burst of one tenant's starts queues on that lock:
    // the longer waits let it drain (each start is a few statements) where the defaults (2 s for a connection, 5 s in
    // all) answered part of a 40-request burst with 503s on a loaded machine.
    if (input.maxRunsInProgress !== undefined) await this.assertRunsInProgressBelow(this.prisma, input.tenantId, input.maxRunsInProgress);
    const { run, rows } = await this.prisma.$transaction(async (tx) => {
      // One tenant's starts take turns: the limit's count and the new run's place (decision 0162) see every start of
      // the tenant committed before this one; without the lock, a batch started at once would share one place.
      await this.runs.lockTenantStarts(tx, input.tenantId);
      if (input.maxRunsInProgress !== undefined) await this.assertRunsInProgressBelow(tx, input.tenantId, input.maxRunsInProgress);
      const createdAt = new Date();
      const created = await this.runs.create(tx, {
        tenantId: input.tenantId,
        question,
        status: 'running',
        createdAt,
        queueAt: await this.runs.queuePlace(tx, input.tenantId, createdAt),
        options: options as Prisma.InputJsonValue,
        workflowVersion: this.workflows.current,
        idempotencyKey: input.idempotencyKey ?? null,
        requestHash: input.idempotencyKey ? (input.requestHash ?? null) : null,
        deadlineAt: options.budgets.wallTimeMs ? new Date(Date.now() + options.budgets.wallTimeMs) : null,
        hostedBy: this.host,
        // Known here when this process runs the model steps itself (a local process); else its first model step records it.
        ...(options.engine === 'openai' && this.options.modelEndpoint ? { modelEndpoint: this.options.modelEndpoint } : {}),
      });
      await this.runs.lock(tx, created.tenantId, created.id);
      await this.audit.appendLocked(tx, created.tenantId, created.id, 'run_created', input.actor, {
        question,
        options,
        workflowVersion: created.workflowVersion,
      });
      const toSend = await this.transitions.routeEvent(tx, created, { type: 'start' }, 'start', [{ type: 'run_created', question }]);
      return { run: created, rows: toSend };
    }, ADMISSION_TRANSACTION);
    await this.sender.send(rows);
    return run;
  }

  /**
   * A new run that replays `runId` (decision 0030): the same question and options, every external answer taken from
   * that run's recording — or, with `from`, only until the first step of that node, and live (recorded anew) from it.
   * Gates are automatic: a person's decisions are not part of the recording, and a replay is for comparing outputs.
   * `limits.underPolicy` brings the replay's options within the tenant's policy, as a new run's (the gateway's: required
   * gates stay required, budgets and counts within the caps, an engine the tenant may not use refused); the original
   * may have been imported, or started under an older policy.
   */
  async replay(tenantId: string, runId: string, from: string | undefined, actor: string, limits: ReplayLimits = {}): Promise<RunRow> {
    const original = await this.runs.find(tenantId, runId);
    if (!original) throw new RunNotFoundError(`Run ${runId} not found`, { runId });
    if (!TERMINAL_RUN_STATUSES.includes(original.status as RunStatus)) {
      throw new RunStateError(`Run ${runId} is ${original.status}; only a finished run (completed, failed or cancelled) can be replayed`, {
        runId,
      });
    }
    if (from !== undefined) {
      const nodes = Object.keys(this.workflows.get(original.workflowVersion, runId).nodes);
      if (!nodes.includes(from)) {
        throw new ValidationError(`--from ${from} is not a node of run ${runId}'s workflow (nodes: ${nodes.join(', ')})`, { runId });
      }
    }
    const { calls } = await this.recordings.size(this.prisma, tenantId, runId);
    if (calls === 0) {
      throw new RunStateError(`Run ${runId} has no recording to replay (it ran before recordings existed, or its recording expired)`, {
        runId,
      });
    }
    const options = RunOptions.parse(original.options);
    return this.start({
      tenantId,
      question: original.question,
      options: (limits.underPolicy ?? ((o: RunOptions) => o))({
        ...options,
        gates: { plan: 'auto', outline: 'auto', publish: 'auto' },
        gateTimeoutMs: 0,
        replay: { of: runId, ...(from !== undefined ? { from } : {}) },
      }),
      actor,
      ...(limits.maxRunsInProgress !== undefined ? { maxRunsInProgress: limits.maxRunsInProgress } : {}),
    });
  }

  /**
   * Approve or reject the open gate of a run. Rejection sends its feedback to the node that redoes the work.
   * An approval that carries an edited plan or outline applies it first, in the same transaction, with an
   * audit row holding the diff (`plan_edited` / `outline_edited`); the run goes on with exactly the edit.
   */
  async decideGate(tenantId: string, runId: string, gate: GateName, decision: ApprovalDecision, actor: string): Promise<void> {
    const rows = await this.prisma.$transaction(async (tx) => {
      const run = await this.mustLock(tx, tenantId, runId);
      const approval = await this.approvals.findOpen(tx, tenantId, runId, gate);
      if (!approval || run.status !== 'awaiting_approval') {
        throw new GateNotOpenError(`Gate ${gate} is not open on run ${runId} (run is ${run.status})`, { runId });
      }
      const approved = decision.decision === 'approve';
      let edited = false;
      if (decision.decision === 'approve' && (decision.plan || decision.outline)) {
        const wrong = decision.plan && gate !== 'plan' ? 'plan' : decision.outline && gate !== 'outline' ? 'outline' : undefined;
        if (wrong) {
          throw new ValidationError(`An edited ${wrong} can only be sent with the ${wrong} gate's approval, not the ${gate} gate's`, {
            runId,
            details: { part: 'body', issues: [{ path: wrong, message: `only at the ${wrong} gate` }] },
          });
        }
        const diff = decision.plan
          ? await this.edits.applyPlan(tx, run, approval.revision, decision.plan)
          : await this.edits.applyOutline(tx, run, approval.revision, decision.outline!);
        if (!isEmptyDiff(diff)) {
          edited = true;
          await this.audit.appendLocked(tx, tenantId, runId, `${gate}_edited`, actor, { gate, revision: approval.revision, diff });
        }
      }
      const feedback = approved ? (decision.comment ?? null) : decision.feedback;
      await this.approvals.decide(tx, approval.id, approved ? 'approved' : 'rejected', feedback, actor);
      await this.audit.appendLocked(tx, tenantId, runId, 'gate_decided', actor, {
        gate,
        revision: approval.revision,
        decision: decision.decision,
        feedback,
        ...(edited ? { edited } : {}),
      });
      const event = { type: 'gate_decided', gate, revision: approval.revision, decision: decision.decision } as const;
      return this.transitions.routeEvent(tx, run, event, `gate.${gate}.${approval.revision}`, [
        {
          type: 'gate_decided',
          gate,
          revision: approval.revision,
          decision: decision.decision,
          ...(feedback ? { feedback } : {}),
          ...(edited ? { edited } : {}),
        },
      ]);
    });
    await this.sender.send(rows);
  }

  /**
   * Queues an intervention; the `moderate` node applies it at the next research-loop boundary. Refused once
   * research has ended (the run is writing, or finished): nothing would apply it, and changing sources under
   * an outline that cites them is the outline gate's job (reject it with feedback). See docs/decisions/0010.
   */
  async intervene(tenantId: string, runId: string, input: InterventionInput, actor: string): Promise<Intervention> {
    const parsed = InterventionInput.safeParse(input);
    if (!parsed.success) {
      throw new ValidationError(
        `Invalid intervention: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`,
        { runId },
      );
    }
    const { type, ...payload } = parsed.data;
    return this.prisma.$transaction(async (tx) => {
      const run = await this.mustLock(tx, tenantId, runId);
      if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
        throw new RunStateError(`Run ${runId} is ${run.status}; interventions apply only to a run that is still researching`, { runId });
      }
      if (run.stopReason) {
        throw new RunStateError(
          `Run ${runId} has finished researching (${run.stopReason.replaceAll('_', ' ')}) and is writing its report; an intervention can no longer be applied. ` +
            'Reject the outline gate with feedback, or start a new run.',
          { runId },
        );
      }
      if (
        parsed.data.type === 'exclude_source' &&
        (await this.research.sourceRecords(tenantId, runId, { id: parsed.data.sourceId }, tx)).length === 0
      ) {
        throw new ValidationError(`Source ${parsed.data.sourceId} is not a source of run ${runId}`, { runId });
      }
      const row = await this.interventions.insert(tx, {
        tenantId,
        runId,
        type,
        payload: payload as Prisma.InputJsonValue,
        createdBy: actor,
      });
      await this.events.append(tx, tenantId, runId, [{ type: 'intervention_queued', interventionId: row.id, intervention: type }]);
      await this.audit.appendLocked(tx, tenantId, runId, 'intervention_queued', actor, { interventionId: row.id, input: parsed.data });
      return interventionView(row);
    });
  }

  /** The run's interventions in the order they were queued. */
  async listInterventions(tenantId: string, runId: string): Promise<Intervention[]> {
    if (!(await this.runs.find(tenantId, runId))) throw new RunNotFoundError(`Run ${runId} not found`, { runId });
    return (await this.interventions.list(tenantId, runId)).map(interventionView);
  }

  async cancel(tenantId: string, runId: string, reason: string, actor: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const run = await this.mustLock(tx, tenantId, runId);
      if (run.status === 'cancelled') return;
      if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
        throw new RunStateError(`Run ${runId} is ${run.status}; only a running or waiting run can be cancelled`, { runId });
      }
      await this.runs.update(tx, tenantId, runId, { status: 'cancelled', failureReason: reason });
      await this.events.append(tx, tenantId, runId, [{ type: 'run_cancelled', reason }]);
      await this.audit.appendLocked(tx, tenantId, runId, 'run_cancelled', actor, { reason });
    });
  }

  /**
   * A failed or cancelled run continues where it stopped: completed steps are kept, unfinished ones run again, by this
   * process's host (0075): the process that resumes a run hosts it from now on. An imported run has no steps in this
   * installation (only its reports and recording came): nothing would move it, so it is refused, pointing to a replay.
   */
  async resume(tenantId: string, runId: string, actor: string, limits: { maxRunsInProgress?: number } = {}): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const run = await this.mustLock(tx, tenantId, runId);
      if (run.status !== 'failed' && run.status !== 'cancelled') {
        throw new RunStateError(`Run ${runId} is ${run.status}; only a failed or cancelled run can be resumed`, { runId });
      }
      if (await this.auditRows.has(tx, tenantId, runId, 'run_imported')) {
        throw new RunStateError(
          `Run ${runId} was imported from an archive: its steps did not come with it, so it cannot be resumed. Replay it instead (dossier replay ${runId})`,
          { runId },
        );
      }
      await this.checkHandOver(run);
      if (limits.maxRunsInProgress !== undefined) await this.assertRunsInProgressBelow(tx, tenantId, limits.maxRunsInProgress, true);
      await this.runs.update(tx, tenantId, runId, {
        status: run.awaitingGate ? 'awaiting_approval' : 'running',
        failureReason: null,
        hostedBy: this.host,
      });
      await this.events.append(tx, tenantId, runId, [{ type: 'run_resumed' }]);
      await this.audit.appendLocked(tx, tenantId, runId, 'run_resumed', actor, {});
    });
    await this.reconciler.reconcile(5_000, runId);
  }

  /**
   * A run still running (or waiting at a gate) whose local process is gone — killed, or its laptop closed — is taken
   * over by this process, which then relays and reconciles its steps (0075). Refused while its host is alive (two
   * processes would advance one run) or when this process calls another model endpoint than the run did (0076).
   */
  async adopt(tenantId: string, runId: string, actor: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const run = await this.mustLock(tx, tenantId, runId);
      if (TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) {
        throw new RunStateError(`Run ${runId} is ${run.status}; only a running or waiting run can be taken over`, { runId });
      }
      if ((run.hostedBy ?? null) === this.host) return;
      await this.checkHandOver(run);
      await this.runs.update(tx, tenantId, runId, { hostedBy: this.host });
      await this.audit.appendLocked(tx, tenantId, runId, 'run_adopted', actor, { from: run.hostedBy, to: this.host });
    });
    await this.reconciler.reconcile(5_000, runId);
  }

  /** A run moves to this process only from a host that is gone, and only if this process calls the run's model endpoint. */
  private async checkHandOver(run: RunRow): Promise<void> {
    if (run.hostedBy && run.hostedBy !== this.host && (await this.hosts.alive(run.hostedBy))) {
      throw new RunStateError(
        `Run ${run.id} is being advanced by another dossier process (${run.hostedBy}), which is still running; stop that process first, or wait for it`,
        { runId: run.id },
      );
    }
    // A local process runs the model steps itself: say now what it would otherwise wait on. (A deployment's gateway
    // calls no model; its workers each decide, step by step.)
    if (this.host === null) return;
    const recorded = storedEndpoint(run.modelEndpoint);
    const own = this.options.modelEndpoint ?? null;
    if (RunOptions.parse(run.options).engine === 'openai' && recorded && !(own && sameEndpoint(recorded, own))) {
      throw new RunStateError(
        `Run ${run.id} ran against ${describeEndpoint(recorded)}; this process is configured for ${describeEndpoint(own)}. ` +
          'Set OPENAI_BASE_URL and OPENAI_MODEL as the run had them to continue it',
        { runId: run.id },
      );
    }
  }

  /**
   * The tenant's runs not finished stay within `max`: counted under the tenant's lock held to the end of the caller's
   * transaction (`lockTenantStarts`: taken here when `locked`, by `start` before it calls this), so concurrent starts of
   * one tenant take turns and cannot both pass at `max - 1`; unlocked, a quick refusal that admits nothing.
   */
  private async assertRunsInProgressBelow(tx: Prisma.TransactionClient, tenantId: string, max: number, locked = false): Promise<void> {
    if (locked) await this.runs.lockTenantStarts(tx, tenantId);
    const [row] = await tx.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM research_runs WHERE tenant_id = ${tenantId}::uuid AND status = ANY(${[...IN_PROGRESS]}::text[])`;
    const current = Number(row?.n ?? 0);
    if (current >= max) {
      throw new TenantLimitError(
        'runs_in_progress',
        `This tenant has ${current} runs in progress, its limit; start another once one finishes (or cancel one)`,
        30,
        { max, current },
      );
    }
  }

  private async mustLock(tx: Prisma.TransactionClient, tenantId: string, runId: string): Promise<RunRow> {
    const run = await this.runs.lock(tx, tenantId, runId);
    if (!run) throw new RunNotFoundError(`Run ${runId} not found`, { runId });
    return run;
  }
}
