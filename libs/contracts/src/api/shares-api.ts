import { z } from 'zod';
import { ReportFormat } from '../entities/research';
import { safeText } from '../safe-text';
import { RunVerification } from './runs-api';

const iso = z.iso.datetime();

/** How long a new share link works: one hour to 30 days, a week unless asked (docs/decisions/0051). */
export const SHARE_EXPIRY_HOURS = { min: 1, max: 720, default: 168 } as const;

export const CreateShareBody = z.strictObject({
  expiresInHours: z.int().min(SHARE_EXPIRY_HOURS.min).max(SHARE_EXPIRY_HOURS.max).default(SHARE_EXPIRY_HOURS.default),
});
export type CreateShareBody = z.input<typeof CreateShareBody>;

export const ShareIdParams = z.strictObject({ id: z.uuid(), shareId: z.uuid() });

/** A share link as its owners see it (never its token: that is shown once, when it is created). */
export const ShareView = z.strictObject({
  id: z.uuid(),
  runId: z.uuid(),
  /** The token's public part, `dsh_<prefix>_…`: enough to tell links apart. */
  prefix: z.string(),
  state: z.enum(['active', 'expired', 'revoked']),
  createdBy: z.string(),
  createdAt: iso,
  expiresAt: iso,
  revokedAt: iso.nullable(),
  revokedBy: z.string().nullable(),
});
export type ShareView = z.infer<typeof ShareView>;

/** The answer of creating a link: the only time its token is shown. `path` is the web app's address for it. */
export const CreatedShareView = ShareView.extend({ token: z.string(), path: z.string() });
export type CreatedShareView = z.infer<typeof CreatedShareView>;

/** What a share link's holder is told about the report it opens; nothing about the tenant, its keys or its other runs. */
export const SharedReportView = z.strictObject({
  run: z.strictObject({ id: z.uuid(), question: z.string(), completedAt: iso.nullable() }),
  share: z.strictObject({ expiresAt: iso }),
  /** The report's verification figures, as the run's own view has them (decision 0086). */
  verification: RunVerification.nullable(),
});
export type SharedReportView = z.infer<typeof SharedReportView>;

export const SharedReportParams = z.strictObject({ format: ReportFormat });

/** A follow-up's question (docs/decisions/0052): the rest comes from the run it follows. */
export const FollowUpBody = z.strictObject({ question: safeText().trim().min(1).max(4000) });
export type FollowUpBody = z.input<typeof FollowUpBody>;
