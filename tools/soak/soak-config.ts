import { z } from 'zod';

/** What one soak does. The defaults are sized for a two-core machine shared with other work (docs/decisions/0018). */
export const SoakConfig = z.strictObject({
  /** Runs submitted through the gateway. */
  runs: z.int().min(1).max(10_000).default(50),
  /** SIGKILLs of a service process (each restarted), spread over the chaos window. */
  kills: z.int().min(0).max(100_000).default(100),
  /** Seconds the whole soak may take, set-up included; runs not finished by then count as lost. */
  duration: z
    .int()
    .min(60)
    .max(24 * 3600)
    .default(840),
  /** Seeds every random choice (victims, timings, which runs use the model server, SSE drops). */
  seed: z
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(1),
  /** Every Nth run uses the openai engine against the local model server (0: none). */
  modelEvery: z.int().min(0).max(1000).default(3),
  /** Redis FLUSHALLs and Postgres outages applied during the chaos window. */
  flushes: z.int().min(0).max(100).default(1),
  outages: z.int().min(0).max(100).default(1),
  /** Seconds Postgres stays down in each outage. */
  outageSeconds: z.int().min(1).max(600).default(10),
  /** Keep the services' logs (in the soak's folder, printed in the summary) even when every check passes. */
  keepLogs: z.boolean().default(false),
});
export type SoakConfig = z.infer<typeof SoakConfig>;
export type SoakConfigInput = z.input<typeof SoakConfig>;

const FLAGS: Record<string, keyof SoakConfig> = {
  '--runs': 'runs',
  '--kills': 'kills',
  '--duration': 'duration',
  '--seed': 'seed',
  '--model-every': 'modelEvery',
  '--flushes': 'flushes',
  '--outages': 'outages',
  '--outage-seconds': 'outageSeconds',
};

export class SoakUsageError extends Error {
  override readonly name = 'SoakUsageError';
}

/** `--runs 50 --kills 100 --duration 840 --seed 7 --keep-logs` → a validated config, or a message naming the flag. */
export function parseSoakArgs(argv: readonly string[]): SoakConfig {
  const raw: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--keep-logs') {
      raw['keepLogs'] = true;
      continue;
    }
    const [name, inline] = flag.split('=', 2) as [string, string | undefined];
    const key = FLAGS[name];
    if (!key) throw new SoakUsageError(`Unknown flag ${name}. Flags: ${[...Object.keys(FLAGS), '--keep-logs'].join(', ')}`);
    const value = inline ?? argv[++i];
    if (value === undefined || !/^\d+$/.test(value)) throw new SoakUsageError(`${name} needs a whole number, got ${value ?? 'nothing'}`);
    raw[key] = Number(value);
  }
  const parsed = SoakConfig.safeParse(raw);
  if (!parsed.success) {
    throw new SoakUsageError(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; '));
  }
  return parsed.data;
}
