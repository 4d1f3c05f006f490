import { z } from 'zod';
import type { Db } from '@dossier/db';
import { describeError } from '@dossier/errors';
import { recordLlmUsage, withLlmSpan } from '@dossier/telemetry';
import type { Engine, EngineCompletion } from './engine/engine';
import { countWords, OfflineEngine } from './engine/offline-engine';
import { AgentCallRecordError, AgentInputError, AgentOutputError } from './errors';
import type { AgentRole } from './roles/role';

/** Where calls are recorded: the Prisma client, PrismaService, or a transaction. */
export type LlmCallStore = Pick<Db, 'llmCall'>;

export interface AgentRunnerOptions {
  /** 'offline' or an engine instance (the OpenAI-compatible engine plugs in here). */
  engine: 'offline' | Engine;
}

export const AgentCallContext = z.strictObject({ tenantId: z.uuid(), runId: z.uuid(), stepKey: z.string().min(1).max(500) });
export type AgentCallContext = z.infer<typeof AgentCallContext>;

const MAX_ERROR_TEXT = 2000;

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/**
 * Runs agent roles: validates the input, lets the engine play the role, validates the output, and records every
 * call that reached the engine in llm_calls (role, engine, model, tokens, cost, latency, outcome).
 */
export class AgentRunner {
  private readonly engine: Engine;

  constructor(
    private readonly store: LlmCallStore,
    options: AgentRunnerOptions,
  ) {
    this.engine = options.engine === 'offline' ? new OfflineEngine() : options.engine;
  }

  get engineName(): string {
    return this.engine.name;
  }

  async run<I, O>(role: AgentRole<I, O>, input: I, ctx: AgentCallContext): Promise<O> {
    const context = AgentCallContext.safeParse(ctx);
    if (!context.success) {
      throw new AgentInputError(`Invalid call context for agent role ${role.name}: ${issues(context.error)}`, { details: { role: role.name } });
    }
    const parsed = role.input.safeParse(input);
    if (!parsed.success) {
      throw new AgentInputError(`Invalid input for agent role ${role.name}: ${issues(parsed.error)}`, {
        runId: ctx.runId,
        details: { role: role.name, issues: parsed.error.issues },
      });
    }

    const started = performance.now();
    let completion: EngineCompletion<O>;
    try {
      completion = await withLlmSpan({ provider: this.engine.name, model: this.engine.model, role: role.name }, () => this.engine.complete(role, parsed.data));
    } catch (err) {
      await this.recordFailure(role.name, ctx, started, err, { model: this.engine.model, tokensIn: countWords(parsed.data), tokensOut: 0, costUsd: 0 });
      throw err;
    }

    const output = role.output.safeParse(completion.output);
    if (!output.success) {
      const err = new AgentOutputError(`Invalid output from agent role ${role.name} (engine ${this.engine.name}): ${issues(output.error)}`, {
        runId: ctx.runId,
        details: { role: role.name, issues: output.error.issues },
      });
      await this.recordFailure(role.name, ctx, started, err, completion);
      throw err;
    }
    await this.record(role.name, ctx, started, completion, 'ok', null);
    return output.data;
  }

  private async record(
    role: string,
    ctx: AgentCallContext,
    started: number,
    usage: Omit<EngineCompletion<unknown>, 'output'>,
    outcome: 'ok' | 'error',
    error: string | null,
  ): Promise<void> {
    recordLlmUsage(usage);
    await this.store.llmCall.create({
      data: {
        tenantId: ctx.tenantId,
        runId: ctx.runId,
        stepKey: ctx.stepKey,
        role,
        engine: this.engine.name,
        model: usage.model,
        tokensIn: usage.tokensIn,
        tokensOut: usage.tokensOut,
        costUsd: usage.costUsd,
        latencyMs: Math.max(0, Math.round(performance.now() - started)),
        outcome,
        error,
      },
    });
  }

  /** Records a failed call; if even that fails, says so without losing either error. */
  private async recordFailure(
    role: string,
    ctx: AgentCallContext,
    started: number,
    err: unknown,
    usage: Omit<EngineCompletion<unknown>, 'output'>,
  ): Promise<void> {
    const described = describeError(err);
    try {
      await this.record(role, ctx, started, usage, 'error', `${described.name}: ${described.message}`.slice(0, MAX_ERROR_TEXT));
    } catch (recordErr) {
      throw new AgentCallRecordError(`Agent role ${role} failed (${described.message}) and the call could not be recorded`, {
        cause: recordErr,
        runId: ctx.runId,
        details: { role, roleError: described },
      });
    }
  }
}
