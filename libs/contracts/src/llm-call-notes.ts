import { z } from 'zod';

const count = z.int().min(0);

/** What was mended in a model's reply without asking the model again (decision 0019). */
export const LocalRepairKind = z.enum([
  'fence',
  'prose',
  'trailing_text',
  'truncated',
  'enum_case',
  'extra_keys',
  'null_array',
  'number_text',
  'control_chars',
]);
export type LocalRepairKind = z.infer<typeof LocalRepairKind>;

/**
 * What happened to a model's answer beyond its outcome, on the llm_calls row of the request (decision 0019). The
 * method section of the report and `report.json` metrics count these.
 */
export const LlmCallNotes = z.strictObject({
  /** Mends made locally to this reply before it was validated. */
  localRepairs: z.array(LocalRepairKind).optional(),
  /** This request was the repair request of its role call (the second and last try). */
  repairRequest: z.boolean().optional(),
  /** Values cut or clamped to a soft limit (lengths of names, roles, titles, notes; list sizes; ranges). */
  trimmed: count.optional(),
  /** Ids still wrong after the repair request, removed or reset (a follow-up's unknown parent becomes none). */
  droppedIds: count.optional(),
  /**
   * The role call gave up on the model after this request: an optional role was skipped, a required one played offline,
   * or (`parts`) the answer had the wrong shape for its batch and the input was asked again in halves (decision 0040).
   */
  gaveUp: z.enum(['skipped', 'offline', 'parts']).optional(),
  /**
   * Model text the text gate removed from this answer after its repair request (decision 0041): sentences or headings
   * that leaked prompt markers, ids, instructions or JSON; repeats; fragments. A leaked heading cleaned is counted too.
   */
  hygiene: z.strictObject({ leaked: count, duplicates: count, fragments: count }).optional(),
  /** The preflight's chat request for a model the endpoint's list did not name (decision 0042): not a role's answer. */
  preflight: z.boolean().optional(),
  /** An offline call played in place of the model: a budget had run out, or the model's answer was unusable. */
  fallback: z.enum(['budget', 'unusable']).optional(),
});
export type LlmCallNotes = z.infer<typeof LlmCallNotes>;
