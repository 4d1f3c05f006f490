import { RunOptions, TenantPolicy } from '@dossier/contracts';
import { PolicyViolationError } from '../../src/common/http-errors';
import { applyTenantPolicy } from '../../src/policy/apply-tenant-policy';

const opts = (o: object = {}) => RunOptions.parse(o);
const policy = (p: object = {}) => TenantPolicy.parse(p);

function violation(fn: () => unknown): { cap: unknown } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PolicyViolationError);
    return (err as PolicyViolationError).details as { cap: unknown };
  }
  throw new Error('expected a policy violation');
}

describe('applyTenantPolicy', () => {
  it('an empty policy changes nothing', () => {
    expect(applyTenantPolicy(opts({ maxIterations: 7 }), policy())).toEqual(opts({ maxIterations: 7 }));
  });

  it('forces required gates on, whatever the request says, and leaves the others', () => {
    const out = applyTenantPolicy(
      opts({ gates: { plan: 'auto', outline: 'auto', publish: 'required' } }),
      policy({ requiredGates: ['plan'] }),
    );
    expect(out.gates).toEqual({ plan: 'required', outline: 'auto', publish: 'required' });
  });

  it('an unset budget takes the cap; one at the cap passes; one beyond it is refused naming the cap', () => {
    const p = policy({ caps: { tokens: 100, costUsd: 2, wallTimeMs: 60_000 } });
    expect(applyTenantPolicy(opts(), p).budgets).toEqual({ tokens: 100, costUsd: 2, wallTimeMs: 60_000 });
    expect(applyTenantPolicy(opts({ budgets: { tokens: 100, costUsd: 1 } }), p).budgets).toEqual({
      tokens: 100,
      costUsd: 1,
      wallTimeMs: 60_000,
    });
    expect(violation(() => applyTenantPolicy(opts({ budgets: { tokens: 101 } }), p)).cap).toBe('tokens');
    expect(violation(() => applyTenantPolicy(opts({ budgets: { costUsd: 2.5 } }), p)).cap).toBe('costUsd');
    expect(violation(() => applyTenantPolicy(opts({ budgets: { wallTimeMs: 60_001 } }), p)).cap).toBe('wallTimeMs');
  });

  it('a default count beyond a cap is lowered; an explicit one is refused', () => {
    const p = policy({ caps: { maxIterations: 2, perspectives: 2 } });
    expect(applyTenantPolicy(opts(), p)).toMatchObject({ maxIterations: 2, perspectives: 2 });
    expect(violation(() => applyTenantPolicy(opts({ maxIterations: 3 }), p, new Set(['maxIterations']))).cap).toBe('maxIterations');
    expect(violation(() => applyTenantPolicy(opts({ perspectives: 3 }), p, new Set(['perspectives']))).cap).toBe('perspectives');
  });

  it('caps interview turns like the other counts: a default is lowered, an explicit ask beyond is refused', () => {
    const p = policy({ caps: { interviewTurns: 2 } });
    expect(applyTenantPolicy(opts({ mode: 'interviews' }), p)).toMatchObject({ mode: 'interviews', interviewTurns: 2 });
    expect(applyTenantPolicy(opts({ interviewTurns: 1 }), p, new Set(['interviewTurns'])).interviewTurns).toBe(1);
    expect(violation(() => applyTenantPolicy(opts({ interviewTurns: 3 }), p, new Set(['interviewTurns']))).cap).toBe('interviewTurns');
  });

  it('engines and search providers outside the allowed lists are refused', () => {
    expect(violation(() => applyTenantPolicy(opts({ engine: 'openai' }), policy({ engines: ['offline'] }))).cap).toBe('engines');
    expect(
      violation(() => applyTenantPolicy(opts({ searchProviders: ['corpus', 'brave'] }), policy({ searchProviders: ['corpus'] }))).cap,
    ).toBe('searchProviders');
    expect(
      applyTenantPolicy(opts({ searchProviders: ['corpus'] }), policy({ searchProviders: ['corpus', 'brave'] })).searchProviders,
    ).toEqual(['corpus']);
  });

  it("the policy keeps keys other parts of the system own (the searcher's sources)", () => {
    expect(TenantPolicy.parse({ sources: { blockDomains: ['example.com'] } })).toMatchObject({
      sources: { blockDomains: ['example.com'] },
      requiredGates: [],
      caps: {},
    });
  });
});
