import { z } from 'zod';
import { ApprovalStatus } from '../approvals';
import { OutlineSubject, PlanSubject, PublishSubject } from '../gate-subjects';
import { GateName } from '../nodes';
import { RunOptions } from '../run-options';
import { safeText } from '../safe-text';
import { RunStatus } from '../run-status';
import { ReportFormat } from '../entities/research';

const iso = z.iso.datetime();

export const CreateRunBody = z.strictObject({
  question: safeText().trim().min(1).max(4000),
  // A replay or a follow-up is started from its run (`POST /v1/runs/{id}/replay`, `/follow-ups`), which checks that run first.
  options: RunOptions.omit({ replay: true, followUp: true }).optional(),
});
export type CreateRunBody = z.input<typeof CreateRunBody>;

/** An `Idempotency-Key` header: the same key from the same tenant returns the run it first created. */
export const IdempotencyKey = safeText()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');

export const ListRunsQuery = z.strictObject({
  status: RunStatus.optional(),
  /** Words of the question, case-insensitive (a substring match: "varen dam" finds "…Varen dam…"). */
  q: safeText().trim().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: safeText().min(1).max(200).optional(),
});
export type ListRunsQuery = z.infer<typeof ListRunsQuery>;

/**
 * A run's verification figures (decision 0086), the same as its report's `metrics.verification` once the report is
 * written: checks made (every check of every round), sentences in the report, and how many of them are supported by the
 * passages they cite. Before the report exists, `checked` and `rounds` count what verification has done so far and the
 * other two are null.
 */
export const RunVerification = z.strictObject({
  checked: z.int().min(0),
  sentences: z.int().min(0).nullable(),
  supported: z.int().min(0).nullable(),
  rounds: z.int().min(0),
});
export type RunVerification = z.infer<typeof RunVerification>;

export const RunView = z.strictObject({
  id: z.uuid(),
  question: z.string(),
  status: RunStatus,
  options: z.record(z.string(), z.unknown()),
  currentNode: z.string().nullable(),
  awaitingGate: z.string().nullable(),
  budgetExhausted: z.string().nullable(),
  stopReason: z.string().nullable(),
  failureReason: z.string().nullable(),
  createdAt: iso,
  updatedAt: iso,
  completedAt: iso.nullable(),
  /**
   * Model use so far, summed from llm_calls: requests the model endpoint received and their tokens and cost; the
   * offline engine's plays are no request and are not counted here (decision 0040).
   */
  usage: z.strictObject({
    llmCalls: z.int().min(0),
    tokensIn: z.int().min(0),
    tokensOut: z.int().min(0),
    costUsd: z.number().min(0),
  }),
  /**
   * What the run has gathered so far (the live counters). Present on `GET /v1/runs/{id}` and on the
   * answers of the run's commands; absent from list pages.
   */
  progress: z
    .strictObject({
      /** The run's steps by status (`dossier show`). */
      steps: z.record(z.string(), z.int().min(0)),
      /** Sources selected to be read (and not excluded by an intervention). */
      sources: z.int().min(0),
      evidence: z.int().min(0),
      claims: z.int().min(0),
      contradictions: z.int().min(0),
      /** The run's verification figures, the same as its report's (decision 0086). */
      verification: RunVerification,
    })
    .optional(),
});
export type RunView = z.infer<typeof RunView>;
export type RunUsage = RunView['usage'];
export type RunProgress = NonNullable<RunView['progress']>;

export const RunList = z.strictObject({ items: z.array(RunView), nextCursor: z.string().nullable() });
export type RunList = z.infer<typeof RunList>;

export const CancelRunBody = z.strictObject({ reason: safeText().trim().min(1).max(500).optional() });

export const ApprovalView = z.strictObject({
  id: z.uuid(),
  runId: z.uuid(),
  gate: GateName,
  revision: z.int().min(0),
  status: ApprovalStatus,
  feedback: z.string().nullable(),
  decidedBy: z.string().nullable(),
  openedAt: iso,
  decidedAt: iso.nullable(),
  expiresAt: iso.nullable(),
  /** What an open gate asks to approve: the plan's analysts and questions, the outline, or the report in brief with its verification figures (null once decided). */
  subject: z.union([PlanSubject, OutlineSubject, PublishSubject]).nullable(),
});
export type ApprovalView = z.infer<typeof ApprovalView>;

export const RunIdParams = z.strictObject({ id: z.uuid() });
export const ReportParams = z.strictObject({ id: z.uuid(), format: ReportFormat });

export const AuditView = z.strictObject({
  events: z.array(
    z.strictObject({
      seq: z.int(),
      kind: z.string(),
      actor: z.string(),
      payload: z.unknown(),
      createdAt: z.string(),
      prevHash: z.string(),
      hash: z.string(),
    }),
  ),
  verification: z.record(z.string(), z.unknown()),
});

export const ClaimView = z.strictObject({
  id: z.uuid(),
  iteration: z.int().min(0),
  statement: z.string(),
  subject: z.string(),
  status: z.string(),
  evidenceIds: z.array(z.uuid()),
});
export type ClaimView = z.infer<typeof ClaimView>;

export const SourceView = z.strictObject({
  id: z.uuid(),
  iteration: z.int().min(0),
  url: z.string(),
  canonicalUrl: z.string(),
  title: z.string(),
  snippet: z.string(),
  origin: z.string(),
  rank: z.int(),
  authority: z.string(),
  selected: z.boolean(),
  snapshotId: z.uuid().nullable(),
});
export type SourceView = z.infer<typeof SourceView>;

/** A stored source by snapshot id or by (at least 8 characters of) its content hash, as report.json lists them. */
export const SourceTextParams = z.strictObject({
  id: safeText()
    .min(8)
    .max(64)
    .regex(/^[0-9a-f-]+$/i, 'a snapshot id or a content-hash prefix'),
});
export const SourceTextView = z.strictObject({ id: z.uuid(), title: z.string(), url: z.string(), text: z.string() });
export type SourceTextView = z.infer<typeof SourceTextView>;
