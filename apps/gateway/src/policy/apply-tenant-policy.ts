import type { RunOptions, TenantPolicy } from '@dossier/contracts';
import { PolicyViolationError } from '../common/http-errors';

function beyond(cap: string, limit: number, requested: number): never {
  throw new PolicyViolationError(`The request asks for ${cap} ${requested}, beyond this tenant's cap of ${limit}`, {
    details: { cap, limit, requested },
  });
}

/**
 * A run's options under its tenant's policy: required gates are forced on, an unset budget takes the
 * cap (as does a default count the caller did not name, listed in `asked`), and anything beyond a cap or outside the allowed engines and providers is refused, naming it.
 * Pure, so every rule has a unit test.
 */
export function applyTenantPolicy(options: RunOptions, policy: TenantPolicy, asked: ReadonlySet<string> = new Set()): RunOptions {
  if (policy.engines && !policy.engines.includes(options.engine)) {
    throw new PolicyViolationError(`Engine "${options.engine}" is not among this tenant's allowed engines (${policy.engines.join(', ')})`, {
      details: { cap: 'engines', allowed: policy.engines, requested: options.engine },
    });
  }
  if (policy.searchProviders) {
    const refused = options.searchProviders.filter((p) => !policy.searchProviders!.includes(p));
    if (refused.length > 0) {
      throw new PolicyViolationError(
        `Search provider(s) ${refused.join(', ')} not among this tenant's allowed searchProviders (${policy.searchProviders.join(', ')})`,
        {
          details: { cap: 'searchProviders', allowed: policy.searchProviders, requested: refused },
        },
      );
    }
  }
  const caps = policy.caps;
  const budgets = { ...options.budgets };
  if (caps.tokens !== undefined)
    budgets.tokens =
      budgets.tokens === undefined
        ? caps.tokens
        : budgets.tokens > caps.tokens
          ? beyond('tokens', caps.tokens, budgets.tokens)
          : budgets.tokens;
  if (caps.costUsd !== undefined)
    budgets.costUsd =
      budgets.costUsd === undefined
        ? caps.costUsd
        : budgets.costUsd > caps.costUsd
          ? beyond('costUsd', caps.costUsd, budgets.costUsd)
          : budgets.costUsd;
  if (caps.wallTimeMs !== undefined) {
    budgets.wallTimeMs =
      budgets.wallTimeMs === undefined
        ? caps.wallTimeMs
        : budgets.wallTimeMs > caps.wallTimeMs
          ? beyond('wallTimeMs', caps.wallTimeMs, budgets.wallTimeMs)
          : budgets.wallTimeMs;
  }
  // A default the caller did not ask for is lowered to the cap; an explicit ask beyond it is refused.
  let { maxIterations, perspectives, interviewTurns } = options;
  if (caps.maxIterations !== undefined && maxIterations > caps.maxIterations) {
    maxIterations = asked.has('maxIterations') ? beyond('maxIterations', caps.maxIterations, maxIterations) : caps.maxIterations;
  }
  if (caps.perspectives !== undefined && perspectives > caps.perspectives) {
    perspectives = asked.has('perspectives') ? beyond('perspectives', caps.perspectives, perspectives) : caps.perspectives;
  }
  if (caps.interviewTurns !== undefined && interviewTurns > caps.interviewTurns) {
    interviewTurns = asked.has('interviewTurns') ? beyond('interviewTurns', caps.interviewTurns, interviewTurns) : caps.interviewTurns;
  }
  const gates = { ...options.gates };
  for (const gate of policy.requiredGates) gates[gate] = 'required';
  return { ...options, maxIterations, perspectives, interviewTurns, budgets, gates };
}
