import { z } from 'zod';
import { GateName, NodeName } from '../nodes';
import { BudgetKind, RunOptions } from '../run-options';
import { ExecutionStatus, OutboxStatus, RunStatus, StopReason } from '../run-status';

const id = z.uuid();
const ts = z.date();

export const Tenant = z.strictObject({ id, name: z.string().min(1).max(200), createdAt: ts });
export type Tenant = z.infer<typeof Tenant>;

export const PrincipalKind = z.enum(['user', 'service']);
export const Principal = z.strictObject({
  id,
  tenantId: id,
  name: z.string().min(1).max(200),
  kind: PrincipalKind,
  role: z.enum(['admin', 'member', 'viewer']),
  createdAt: ts,
});
export type Principal = z.infer<typeof Principal>;

/** The secret itself is never stored: only its hash, and a public prefix to find the row. */
export const ApiKey = z.strictObject({
  id,
  tenantId: id,
  principalId: id,
  prefix: z.string().min(6).max(32),
  secretHash: z.string(),
  createdAt: ts,
  revokedAt: ts.nullable(),
  lastUsedAt: ts.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ResearchRun = z.strictObject({
  id,
  tenantId: id,
  question: z.string().min(1).max(4000),
  status: RunStatus,
  options: RunOptions,
  workflowVersion: z.int().min(1),
  currentNode: NodeName.nullable(),
  awaitingGate: GateName.nullable(),
  budgetExhausted: BudgetKind.nullable(),
  stopReason: StopReason.nullable(),
  failureReason: z.string().nullable(),
  deadlineAt: ts.nullable(),
  createdAt: ts,
  updatedAt: ts,
  completedAt: ts.nullable(),
});
export type ResearchRun = z.infer<typeof ResearchRun>;

export const NodeExecution = z.strictObject({
  stepKey: z.string(),
  tenantId: id,
  runId: id,
  node: NodeName,
  iteration: z.int().min(0),
  shard: z.int().min(0),
  status: ExecutionStatus,
  attempts: z.int().min(0),
  result: z.unknown().nullable(),
  error: z.string().nullable(),
  startedAt: ts.nullable(),
  completedAt: ts.nullable(),
});
export type NodeExecution = z.infer<typeof NodeExecution>;

export const WorkflowCheckpoint = z.strictObject({
  id: z.bigint(),
  tenantId: id,
  runId: id,
  stepKey: z.string(),
  state: z.unknown(),
  createdAt: ts,
});
export type WorkflowCheckpoint = z.infer<typeof WorkflowCheckpoint>;

export const OutboxRow = z.strictObject({
  id: z.bigint(),
  tenantId: id,
  runId: id,
  stepKey: z.string(),
  node: NodeName,
  iteration: z.int().min(0),
  shard: z.int().min(0),
  status: OutboxStatus,
  payload: z.unknown(),
  createdAt: ts,
  sentAt: ts.nullable(),
});
export type OutboxRow = z.infer<typeof OutboxRow>;

export const AuditEvent = z.strictObject({
  tenantId: id,
  runId: id,
  seq: z.int().min(0),
  kind: z.string().min(1).max(80),
  actor: z.string().max(200),
  /** The exact bytes that were hashed (JSON text, not jsonb, whose key order Postgres may change). */
  payload: z.string(),
  createdAt: z.string(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

export const LlmCall = z.strictObject({
  id,
  tenantId: id,
  runId: id,
  stepKey: z.string(),
  role: z.string(),
  engine: z.string(),
  model: z.string(),
  tokensIn: z.int().min(0),
  tokensOut: z.int().min(0),
  costUsd: z.number().min(0),
  latencyMs: z.int().min(0),
  /** pending: a request under way (its row holds the budget reservation until the answer's figures replace it). */
  outcome: z.enum(['pending', 'ok', 'error', 'refused', 'invalid']),
  createdAt: ts,
});
export type LlmCall = z.infer<typeof LlmCall>;
