import { z } from 'zod';

/**
 * The model endpoint a run ran against (docs/decisions/0076): where (the base URL without credentials, query or
 * fragment) and which model. Never the key. Stored on the run; a worker configured for another endpoint leaves the
 * run's model steps to a worker that has this one.
 */
export const ModelEndpoint = z.strictObject({ baseUrl: z.string().min(1), model: z.string().min(1) });
export type ModelEndpoint = z.infer<typeof ModelEndpoint>;

/** The endpoint of OPENAI_BASE_URL and OPENAI_MODEL, or null when either is unset (the process plays offline only). */
export function modelEndpointOf(baseUrl: string | undefined, model: string | undefined): ModelEndpoint | null {
  const url = baseUrl?.trim();
  const name = model?.trim();
  if (!url || !name) return null;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return { baseUrl: u.toString().replace(/\/+$/, ''), model: name };
  } catch {
    // Not a URL: the agents refuse it when a run asks for the engine; compared as written meanwhile.
    return { baseUrl: url.replace(/\/+$/, ''), model: name };
  }
}

export function sameEndpoint(a: ModelEndpoint, b: ModelEndpoint): boolean {
  return a.baseUrl === b.baseUrl && a.model === b.model;
}

export function describeEndpoint(e: ModelEndpoint | null): string {
  return e ? `${e.model} at ${e.baseUrl}` : 'no model endpoint (OPENAI_BASE_URL and OPENAI_MODEL unset)';
}

/** The endpoint stored on a run row, if it is one (a malformed value counts as none: the next model step records one). */
export function storedEndpoint(value: unknown): ModelEndpoint | null {
  const parsed = ModelEndpoint.safeParse(value);
  return parsed.success ? parsed.data : null;
}
