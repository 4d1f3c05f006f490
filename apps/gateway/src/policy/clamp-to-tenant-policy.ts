import type { ClampedOption, Engine, RunOptions, TenantPolicy } from '@dossier/contracts';

/** The engine a run is moved to when its own is not allowed: offline (costs nothing) if the tenant may use it. */
function allowedEngine(allowed: readonly Engine[]): Engine {
  return allowed.includes('offline') ? 'offline' : allowed[0]!;
}

/**
 * Options a tenant did not write itself (an imported archive's, the run a replay repeats) brought within its policy:
 * where `applyTenantPolicy` refuses a request beyond a cap, this lowers it to the cap, and says what it changed. An
 * engine or search provider the tenant may not use is replaced by an allowed one (the offline engine first), every
 * budget and count is at most its cap (an unset budget takes the cap), and required gates are required. Pure.
 */
export function clampToTenantPolicy(options: RunOptions, policy: TenantPolicy): { options: RunOptions; clamped: ClampedOption[] } {
  const clamped: ClampedOption[] = [];
  const change = <T>(option: string, from: T, to: T): T => {
    if (JSON.stringify(from) !== JSON.stringify(to))
      clamped.push({ option, from: (from ?? null) as ClampedOption['from'], to: to as ClampedOption['to'] });
    return to;
  };
  let { engine, searchProviders } = options;
  if (policy.engines && !policy.engines.includes(engine)) engine = change('engine', engine, allowedEngine(policy.engines));
  if (policy.searchProviders) {
    const allowed = policy.searchProviders;
    const kept = searchProviders.filter((p) => allowed.includes(p));
    searchProviders = change('searchProviders', searchProviders, kept.length > 0 ? kept : [allowed[0]!]);
  }
  const caps = policy.caps;
  const budgets = { ...options.budgets };
  for (const budget of ['tokens', 'costUsd', 'wallTimeMs'] as const) {
    const cap = caps[budget];
    const value = budgets[budget];
    if (cap !== undefined && (value === undefined || value > cap)) budgets[budget] = change(`budgets.${budget}`, value, cap);
  }
  const counts = { maxIterations: options.maxIterations, perspectives: options.perspectives, interviewTurns: options.interviewTurns };
  for (const count of ['maxIterations', 'perspectives', 'interviewTurns'] as const) {
    const cap = caps[count];
    if (cap !== undefined && counts[count] > cap) counts[count] = change(count, counts[count], cap);
  }
  const gates = { ...options.gates };
  for (const gate of policy.requiredGates) gates[gate] = change(`gates.${gate}`, gates[gate], 'required');
  return { options: { ...options, engine, searchProviders, budgets, ...counts, gates }, clamped };
}
