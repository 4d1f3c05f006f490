import { z } from 'zod';
import { safeText } from './safe-text';

/** A bare host name (no scheme, port or path), lower-cased: what "exclude a domain" names. */
const Domain = safeText()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a host name such as example.com');

/**
 * What a person may tell a running research loop. Queued when submitted, applied by the `moderate` node at
 * the next research-loop boundary (docs/architecture.md §3), and recorded in the audit log both times.
 */
export const InterventionInput = z.discriminatedUnion('type', [
  /** Research this question too, from the next iteration on. */
  z.strictObject({ type: z.literal('add_question'), question: safeText().trim().min(3).max(500) }),
  /** Drop this domain (and its subdomains): its sources are excluded from search and from the report. */
  z.strictObject({ type: z.literal('exclude_domain'), domain: Domain }),
  /** Drop one source record of this run, with its evidence and the claims that rest only on it. */
  z.strictObject({ type: z.literal('exclude_source'), sourceId: z.uuid() }),
  /** Narrow the scope: a sentence that the remaining planning, search and writing must respect. */
  z.strictObject({ type: z.literal('narrow_scope'), scope: safeText().trim().min(3).max(1000) }),
]);
export type InterventionInput = z.infer<typeof InterventionInput>;
export const InterventionType = z.enum(['add_question', 'exclude_domain', 'exclude_source', 'narrow_scope']);
export type InterventionType = z.infer<typeof InterventionType>;
// The enum (used by events) and the union's discriminator must name the same types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typesMatch: Same<InterventionType, InterventionInput['type']> = true;
void typesMatch;

export const InterventionStatus = z.enum(['pending', 'applied', 'discarded']);
export type InterventionStatus = z.infer<typeof InterventionStatus>;

/** An intervention as stored and as the API returns it. */
export const Intervention = z.strictObject({
  id: z.uuid(),
  runId: z.uuid(),
  input: InterventionInput,
  status: InterventionStatus,
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
  /** The research-loop iteration whose `moderate` step applied it. */
  appliedIteration: z.int().min(0).nullable(),
  appliedAt: z.iso.datetime().nullable(),
});
export type Intervention = z.infer<typeof Intervention>;
