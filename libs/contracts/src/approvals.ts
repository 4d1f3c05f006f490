import { z } from 'zod';
import { OutlineSubject, PlanSubject } from './gate-subjects';
import { GateName } from './nodes';
import { safeText } from './safe-text';

export const ApprovalStatus = z.enum(['open', 'approved', 'rejected', 'expired']);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/**
 * A person's decision at an open gate. Rejecting without saying why helps nobody: feedback is required.
 * An approval may carry the reviewer's direct edits: the whole plan (plan gate) or outline (outline gate) as
 * it should be, in the shape the gate showed it; the run goes on with exactly that (docs/decisions/0017).
 */
export const ApprovalDecision = z.discriminatedUnion('decision', [
  z.strictObject({
    decision: z.literal('approve'),
    comment: safeText().max(4000).optional(),
    plan: PlanSubject.optional(),
    outline: OutlineSubject.optional(),
  }),
  z.strictObject({ decision: z.literal('reject'), feedback: safeText().trim().min(1).max(4000) }),
]);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const Approval = z.strictObject({
  id: z.uuid(),
  tenantId: z.uuid(),
  runId: z.uuid(),
  gate: GateName,
  revision: z.int().min(0),
  status: ApprovalStatus,
  feedback: z.string().nullable(),
  decidedBy: z.string().nullable(),
  openedAt: z.date(),
  decidedAt: z.date().nullable(),
  expiresAt: z.date().nullable(),
});
export type Approval = z.infer<typeof Approval>;
