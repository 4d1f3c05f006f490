import { randomUUID } from 'node:crypto';
import { RunOptions, type NodeName } from '@dossier/contracts';
import { sql } from './test-database';

/**
 * What a stage's unit tests need to call one handler against real Postgres without the engine around it: a
 * tenant and a running run, and the step context the StepRunner would build. The test commits the outcome's
 * `write` itself (`prisma.$transaction((tx) => outcome.write!(tx))`). Written against contracts only: every
 * other library's tests import libs/testing, so importing one of them here would be a cycle (docs/decisions/0031).
 */
export interface SeededRun {
  id: string;
  tenantId: string;
  question: string;
  options: RunOptions;
  workflowVersion: number;
  createdAt: Date;
  stopReason: string | null;
  budgetExhausted: string | null;
  embeddingsFallback: null;
}

/** The run-row fields a step's context carries beyond identity and options, as a new running run has them. */
export function newRunFields(): Pick<SeededRun, 'createdAt' | 'stopReason' | 'budgetExhausted' | 'embeddingsFallback'> {
  return { createdAt: new Date(), stopReason: null, budgetExhausted: null, embeddingsFallback: null };
}

export async function seedRun(databaseUrl: string, question: string, options: Partial<RunOptions> = {}): Promise<SeededRun> {
  const run: SeededRun = {
    id: randomUUID(),
    tenantId: randomUUID(),
    question,
    options: RunOptions.parse(options),
    workflowVersion: 1,
    ...newRunFields(),
  };
  await sql(databaseUrl, 'INSERT INTO tenants (id, name) VALUES ($1, $2)', [run.tenantId, `stage-test-${run.tenantId}`]);
  await sql(
    databaseUrl,
    `INSERT INTO research_runs (id, tenant_id, question, status, options, workflow_version, created_at, updated_at)
     VALUES ($1, $2, $3, 'running', $4, $5, $6, now())`,
    [run.id, run.tenantId, question, JSON.stringify(run.options), run.workflowVersion, run.createdAt],
  );
  return run;
}

/** The context the StepRunner gives the handler of `node` (structurally `StepContext<N>` of libs/workflow). */
// S: a node that is no fan-out takes only shard 0, and its job type says so.
export function stepContext<N extends NodeName, S extends number = 0>(
  run: SeededRun,
  node: N,
  at: { iteration?: number; shard?: S; feedback?: string } = {},
) {
  const iteration = at.iteration ?? 0;
  const shard = (at.shard ?? 0) as S;
  const stepKey = `${run.id}.${node}.${iteration}.${shard}`;
  return {
    job: { tenantId: run.tenantId, runId: run.id, node, iteration, shard },
    stepKey,
    attempt: 1,
    run,
    tenantId: run.tenantId,
    runId: run.id,
    call: { tenantId: run.tenantId, runId: run.id, stepKey },
    rejectionFeedback: async () => at.feedback ?? null,
  };
}

/** A model that answers every role with output of the wrong shape (structurally an agents `Engine`): the bad-input path. */
export const unusableEngine = {
  name: 'unusable',
  model: 'unusable-model',
  complete: async () => ({ output: { unusable: true } as never, model: 'unusable-model', tokensIn: 1, tokensOut: 1, costUsd: 0 }),
};
