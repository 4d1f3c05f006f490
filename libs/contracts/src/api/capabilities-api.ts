import { z } from 'zod';
import { Engine } from '../run-options';

/** One engine or search provider, and whether this deployment can run it (and if not, what is missing). */
export const CapabilityView = z.strictObject({
  name: z.string(),
  available: z.boolean(),
  /** Why it is not available, in words an operator acts on ("OPENAI_BASE_URL and OPENAI_MODEL are not set…"); null when it is. */
  reason: z.string().nullable(),
});
export type CapabilityView = z.infer<typeof CapabilityView>;

/**
 * `GET /v1/capabilities`: what this deployment is configured to run, whatever the tenant's policy allows
 * (`/v1/me` says that). A client offers the intersection: an engine or provider that is allowed but not configured
 * would fail the run at its first step.
 */
export const CapabilitiesView = z.strictObject({
  engines: z.array(CapabilityView.extend({ name: Engine })),
  searchProviders: z.array(CapabilityView),
});
export type CapabilitiesView = z.infer<typeof CapabilitiesView>;
