import { z } from 'zod';
import { InterventionType } from './interventions';
import { GateName, NodeName } from './nodes';
import { BudgetKind } from './run-options';
import { StopReason } from './run-status';

const step = { node: NodeName, iteration: z.int().min(0), shard: z.int().min(0) };

/**
 * Run events: the durable, ordered log behind progress lines and SSE (`seq` per run, no gaps).
 * One schema per type so consumers can switch exhaustively.
 */
export const RunEventData = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('run_created'), question: z.string() }),
  z.strictObject({ type: z.literal('step_started'), ...step, attempt: z.int().min(1) }),
  z.strictObject({ type: z.literal('step_completed'), ...step, result: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('step_retrying'), ...step, attempt: z.int().min(1), error: z.string() }),
  z.strictObject({ type: z.literal('gate_opened'), gate: GateName, revision: z.int().min(0) }),
  z.strictObject({
    type: z.literal('gate_decided'),
    gate: GateName,
    revision: z.int().min(0),
    decision: z.enum(['approve', 'reject', 'expired']),
    feedback: z.string().optional(),
    /** The approval carried the reviewer's edits of the plan or outline (the audit log has the diff). */
    edited: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('research_stopped'), iteration: z.int().min(0), reason: StopReason }),
  z.strictObject({ type: z.literal('budget_exhausted'), budget: BudgetKind }),
  z.strictObject({ type: z.literal('run_completed') }),
  z.strictObject({ type: z.literal('run_failed'), node: NodeName.optional(), error: z.string(), code: z.string() }),
  z.strictObject({ type: z.literal('run_cancelled'), reason: z.string() }),
  z.strictObject({ type: z.literal('run_resumed') }),
  /** A person's intervention was queued; `moderate` applies it at the next research-loop boundary. */
  z.strictObject({ type: z.literal('intervention_queued'), interventionId: z.uuid(), intervention: InterventionType }),
  z.strictObject({
    type: z.literal('intervention_applied'),
    interventionId: z.uuid(),
    intervention: InterventionType,
    iteration: z.int().min(0),
  }),
  /** Research ended before a boundary could apply it. */
  z.strictObject({
    type: z.literal('intervention_discarded'),
    interventionId: z.uuid(),
    intervention: InterventionType,
    reason: z.string(),
  }),
]);
export type RunEventData = z.infer<typeof RunEventData>;
export type RunEventType = RunEventData['type'];

export const RunEvent = z.strictObject({
  runId: z.uuid(),
  seq: z.int().min(1),
  at: z.iso.datetime(),
  data: RunEventData,
});
export type RunEvent = z.infer<typeof RunEvent>;

/** One event of a run's durable log, with its sequence number (the SSE event id). */
export interface SequencedEvent {
  seq: number;
  data: RunEventData;
}
