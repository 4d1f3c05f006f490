import { z } from 'zod';
import { ConfigError } from '@dossier/errors';
import { environment } from './environment';

/**
 * Parses the environment against one app's schema at boot. Every problem is listed with the variable's
 * name, so a missing or malformed setting fails the process at once instead of at first use.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = environment()): z.infer<S> {
  // An empty variable means "not set" (so its default applies), as in most shells' `VAR= cmd` usage.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = env[String(issue.path[0])];
    return value === undefined || value === '' ? `${name}: required but not set` : `${name}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${[...new Set(problems)].join('; ')}`, {
    details: { variables: parsed.error.issues.map((i) => i.path.join('.')) },
  });
}
