import type { RunView } from '../../api/types';
import { formatInt, formatUsd } from '../../ui/format';

/** The live counters: what the run gathered, and its model use against its budgets. */
export function Counters({ run }: { run: RunView }) {
  const budgets = (run.options['budgets'] ?? {}) as { tokens?: number; costUsd?: number; wallTimeMs?: number };
  const p = run.progress;
  const tokens = run.usage.tokensIn + run.usage.tokensOut;
  // The offline engine calls no model: its token and cost figures would describe nothing a person pays for.
  const usesModel = (run.options['engine'] ?? 'offline') !== 'offline';
  return (
    <section aria-labelledby="counters-title" className="counters">
      <h2 id="counters-title">Counters</h2>
      <dl>
        <div>
          <dt>Sources</dt>
          <dd data-counter="sources">{formatInt(p?.sources ?? 0)}</dd>
        </div>
        <div>
          <dt>Evidence</dt>
          <dd data-counter="evidence">{formatInt(p?.evidence ?? 0)}</dd>
        </div>
        <div>
          <dt>Claims</dt>
          <dd data-counter="claims">{formatInt(p?.claims ?? 0)}</dd>
        </div>
        <div>
          <dt>Contradictions</dt>
          <dd data-counter="contradictions">{formatInt(p?.contradictions ?? 0)}</dd>
        </div>
        {usesModel && (
          <>
            <div>
              <dt>Tokens</dt>
              <dd data-counter="tokens">
                {formatInt(tokens)}
                {budgets.tokens ? <span className="of"> of {formatInt(budgets.tokens)}</span> : null}
              </dd>
            </div>
            <div>
              <dt>Cost</dt>
              <dd data-counter="cost">
                {formatUsd(run.usage.costUsd)}
                {budgets.costUsd ? <span className="of"> of {formatUsd(budgets.costUsd)}</span> : null}
              </dd>
            </div>
          </>
        )}
      </dl>
      {usesModel && budgets.tokens ? (
        <meter min={0} max={budgets.tokens} value={Math.min(tokens, budgets.tokens)} aria-label="Tokens used of the token budget" />
      ) : null}
      {run.budgetExhausted && <p className="field-error">Budget exhausted: {run.budgetExhausted.replaceAll('_', ' ')}</p>}
    </section>
  );
}
