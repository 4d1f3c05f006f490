import { Inject, Injectable } from '@nestjs/common';
import {
  InterventionType,
  RunOptions,
  TERMINAL_RUN_STATUSES,
  stepKey,
  type AnyNodeResult,
  type NodeName,
  type RunEventData,
  type RunStatus,
} from '@dossier/contracts';
import {
  ApprovalRepository,
  ExecutionRepository,
  InterventionRepository,
  StepCommitRepository,
  type Db,
  type OutboxRowData,
  type Prisma,
  type RunPatch,
  type RunRow,
  type TransitionWrite,
} from '@dossier/db';
import { InvalidStepResultError } from '@dossier/errors';
import { injectTraceCarrier } from '@dossier/telemetry';
import { AuditLog } from '../audit/audit-log';
import type { WorkflowGraphs } from '../graph/workflow-graphs';
import { WORKFLOW_GRAPHS, WORKFLOW_OPTIONS, type WorkflowOptions } from '../workflow-options';
import { route, type Decision, type RouterEvent, type RouterState } from '../graph/router';

/**
 * What a transition reads of its run: the step completing it passes the state it read under the run lock (status,
 * budget, host) over what its start statement read (ids, options, graph version: unchanged since the run was created;
 * docs/decisions/0133); a move from outside a step passes the row it locked.
 */
export type TransitionRun = Pick<
  RunRow,
  'id' | 'tenantId' | 'status' | 'hostedBy' | 'options' | 'workflowVersion' | 'budgetExhausted' | 'createdAt' | 'queueAt'
>;

/**
 * Writes a routing decision inside the caller's transaction (which holds the run lock): the next steps
 * into the outbox, the events, the gate, the run's new state. Used by step completion, run start and gate
 * decisions alike, so there is one place where a run moves.
 */
@Injectable()
export class TransitionWriter {
  constructor(
    private readonly executions: ExecutionRepository,
    private readonly commits: StepCommitRepository,
    private readonly approvals: ApprovalRepository,
    private readonly interventions: InterventionRepository,
    private readonly audit: AuditLog,
    @Inject(WORKFLOW_GRAPHS) private readonly workflows: WorkflowGraphs,
    @Inject(WORKFLOW_OPTIONS) private readonly options: WorkflowOptions,
  ) {}

  /** The router's view of a run, read from Postgres in the deciding transaction. */
  async loadState(tx: Db, run: TransitionRun, options: RunOptions = RunOptions.parse(run.options)): Promise<RouterState> {
    return this.stateFrom(run, options, await this.executions.latestResults(tx, run.tenantId, run.id));
  }

  /** The router's view of a run from its latest results (read by `loadState`, or by the step's state statement). */
  stateFrom(
    run: Pick<RunRow, 'id' | 'budgetExhausted'>,
    options: RunOptions,
    latest: readonly { node: string; iteration: number; result: unknown }[],
  ): RouterState {
    const results: RouterState['results'] = {};
    for (const row of latest) {
      const node = row.node as NodeName;
      const schema = this.workflows.table.results[node] as (typeof this.workflows.table.results)[NodeName] | undefined;
      if (!schema)
        throw new InvalidStepResultError(
          `Run ${run.id} has a result of node ${row.node}, which this process's node table does not declare`,
          { runId: run.id },
        );
      results[node] = { iteration: row.iteration, result: schema.parse(row.result) as AnyNodeResult };
    }
    return { options, budgetExhausted: run.budgetExhausted as RouterState['budgetExhausted'], results };
  }

  /**
   * Returns the outbox rows to enqueue after commit: none while the run is not running (a cancelled run
   * keeps its decided steps pending; resume sends them), and none for a run this process does not host (a gate decided
   * from another shell): they stay pending for its host's relay, which puts them on its own queues (0075).
   *
   * The common move (a step completed, the next ones decided) is one statement (`StepCommitRepository.writeTransition`,
   * docs/decisions/0071): the checkpoint, the outbox rows, the run's new state and the events. Opening a gate, stopping
   * research and completing the run add their own writes (approval, audit chain, discarded interventions) before it.
   * `trace`: the carrier the decided jobs continue (the caller's, read once per step); `checkpoint`: the completing
   * step's, written in the same statement.
   */
  async apply(
    tx: Db,
    run: TransitionRun,
    decision: Decision,
    causeKey: string,
    events: RunEventData[] = [],
    links?: Record<string, string>[],
    more: { trace?: Record<string, string>; checkpoint?: TransitionWrite['checkpoint']; options?: RunOptions } = {},
  ): Promise<OutboxRowData[]> {
    const trace = 'trace' in more ? more.trace : injectTraceCarrier();
    const steps = decision.steps.map((s) => {
      const ref = { runId: run.id, node: s.node, iteration: s.iteration, shard: s.shard };
      return {
        stepKey: stepKey(ref),
        node: s.node,
        iteration: s.iteration,
        shard: s.shard,
        payload: {
          tenantId: run.tenantId,
          ...ref,
          // The job's place in its queue: the steps of older runs first (docs/decisions/0159), each tenant's runs in
          // progress a minute apart (0162). The field keeps its name: a conductor of the previous version relays it.
          runCreatedAt: (run.queueAt ?? run.createdAt).getTime(),
          ...(trace ? { trace } : {}),
          ...(links && links.length > 0 ? { links } : {}),
        } as Prisma.InputJsonValue,
      };
    });

    const out: RunEventData[] = [...events];
    for (const g of decision.autoApproved)
      out.push({ type: 'gate_decided', gate: g.gate, revision: g.revision, decision: 'approve', feedback: 'auto' });
    const write = { tenantId: run.tenantId, runId: run.id, causeKey, steps, ...(more.checkpoint ? { checkpoint: more.checkpoint } : {}) };
    if (decision.waiting) {
      await this.commits.writeTransition(tx, { ...write, patch: {}, events: out });
      return [];
    }

    const terminal = TERMINAL_RUN_STATUSES.includes(run.status as RunStatus);
    const patch: RunPatch = {};
    if (decision.steps[0]) patch.currentNode = decision.steps[0].node;
    if (decision.stop) {
      patch.stopReason = decision.stop.reason;
      out.push({ type: 'research_stopped', ...decision.stop });
      await this.audit.appendLocked(tx, run.tenantId, run.id, 'research_stopped', 'system', decision.stop);
      out.push(...(await this.discardPendingInterventions(tx, run, decision.stop.reason)));
    }
    if (decision.openGate) {
      const options = more.options ?? RunOptions.parse(run.options);
      const { gate, revision } = decision.openGate;
      await this.approvals.open(tx, {
        tenantId: run.tenantId,
        runId: run.id,
        gate,
        revision,
        expiresAt: options.gateTimeoutMs > 0 ? new Date(Date.now() + options.gateTimeoutMs) : null,
      });
      patch.awaitingGate = gate;
      if (!terminal) patch.status = 'awaiting_approval';
      out.push({ type: 'gate_opened', gate, revision });
      await this.audit.appendLocked(tx, run.tenantId, run.id, 'gate_opened', 'system', { gate, revision });
    } else {
      patch.awaitingGate = null;
      if (!terminal) patch.status = 'running';
    }
    if (decision.complete) {
      if (!terminal) {
        patch.status = 'completed';
        patch.completedAt = new Date();
      }
      out.push({ type: 'run_completed' });
      await this.audit.appendLocked(tx, run.tenantId, run.id, 'run_completed', 'system', {});
    }
    const inserted = await this.commits.writeTransition(tx, { ...write, patch, events: out });
    return terminal || (run.hostedBy ?? null) !== (this.options.host ?? null) ? [] : inserted;
  }

  /**
   * Moves a run on an event from outside a step (the run's start, a gate decision), inside the caller's transaction
   * that holds the run lock: the run's own graph decides from the persisted state. Returns the outbox rows to send
   * after commit (`OutboxSender.send`).
   */
  async routeEvent(tx: Db, run: RunRow, event: RouterEvent, causeKey: string, events: RunEventData[]): Promise<OutboxRowData[]> {
    const decision = route(this.workflows.get(run.workflowVersion, run.id), await this.loadState(tx, run), event);
    return this.apply(tx, run, decision, causeKey, events);
  }

  /**
   * Research ended: an intervention queued after the last `moderate` read its queue has no boundary left
   * to apply it. It is discarded, visibly, rather than left pending forever (the run application's intervene refuses
   * new ones from here on).
   */
  private async discardPendingInterventions(tx: Db, run: TransitionRun, reason: string): Promise<RunEventData[]> {
    const pending = await this.interventions.pending(run.tenantId, run.id, tx);
    if (pending.length === 0) return [];
    await this.interventions.settle(
      tx,
      run.tenantId,
      run.id,
      pending.map((p) => p.id),
      'discarded',
      null,
      new Date(),
    );
    const why = `research ended (${reason.replaceAll('_', ' ')}) before a loop boundary could apply it`;
    const out: RunEventData[] = [];
    for (const p of pending) {
      const intervention = InterventionType.parse(p.type);
      out.push({ type: 'intervention_discarded', interventionId: p.id, intervention, reason: why });
      await this.audit.appendLocked(tx, run.tenantId, run.id, 'intervention_discarded', 'system', {
        interventionId: p.id,
        type: intervention,
        reason: why,
      });
    }
    return out;
  }
}
