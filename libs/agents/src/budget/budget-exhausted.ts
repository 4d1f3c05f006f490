import type { BudgetKind } from '@dossier/contracts';

/**
 * Thrown by the budget check before a request when one of the run's budgets has run out. The runner catches
 * it, marks the run and finishes the call offline; it never reaches the step engine.
 */
export class BudgetExhaustedSignal extends Error {
  constructor(readonly budget: BudgetKind) {
    super(`The run's ${budget} budget is exhausted`);
    this.name = 'BudgetExhaustedSignal';
  }
}
