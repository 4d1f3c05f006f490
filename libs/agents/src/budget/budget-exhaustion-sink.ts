import type { BudgetKind } from '@dossier/contracts';

/** Marks a run's budget as exhausted (run row, `budget_exhausted` event, audit); the workflow's RunCommands is one. */
export interface BudgetExhaustionSink {
  markBudgetExhausted(tenantId: string, runId: string, budget: BudgetKind, actor: string): Promise<boolean>;
}
