import { z } from 'zod';
import { RunOptions, type BudgetKind, type LlmCallNotes } from '@dossier/contracts';
import { describeError } from '@dossier/errors';
import { recordLlmUsage, recordOfflinePlay, withLlmSpan } from '@dossier/telemetry';
import { BudgetExhaustedSignal } from './budget/budget-exhausted';
import type { BudgetExhaustionSink } from './budget/budget-exhaustion-sink';
import { BudgetLedger } from './budget/budget-ledger';
import type { CallHooks, Engine, EngineCompletion } from './engine/engine';
import { countWords, OfflineEngine } from './engine/offline-engine';
import { RecordedAnswer } from './engine/recorded-answer';
import { AgentCallRecordError, AgentInputError, AgentOutputError, AgentRefusalError } from './errors';
import { LIVE_ANSWERS, type ExternalAnswers, type ExternalCall } from './ports/external-answers';
import type { LlmCallLog } from './ports/llm-call-log';
import type { RunSettingsSource } from './ports/run-settings';
import type { SpendStore } from './ports/spend-store';
import type { AgentRole } from './roles/role';

/** How the engine of a run is found: from the run's own options (`engine: 'offline' | 'openai'`). */
export interface PerRunEngines {
  /** The runs' settings and their spend (ports; a worker lends PrismaAgentStore, a test an in-memory store). */
  store: RunSettingsSource & SpendStore;
  /** Builds the openai engine from this worker's environment on first use; throws LlmConfigError when unset. */
  openai: () => Engine;
  /** Marks a run whose token or cost budget ran out (the workflow's RunCommands). */
  budgetSink?: BudgetExhaustionSink;
  /** For tests: how long a reservation of a request that never finished keeps counting. */
  staleReservationMs?: number;
}

export interface AgentRunnerOptions {
  /** A fixed engine for every call ('offline' or an instance), or 'per-run': each run's options choose. */
  engine: 'offline' | 'per-run' | Engine;
  perRun?: PerRunEngines;
  /**
   * The run's recording of model answers (decision 0030): a worker passes its adapter's; without one (evals, tests
   * of a role) every request goes live and nothing is recorded.
   */
  answers?: ExternalAnswers;
}

/** Who played one part of a role call: an engine's name ('openai', 'offline'), or 'skipped' (an optional role). */
export interface Play<I> {
  input: I;
  engine: string;
  /** Played offline in the model's place: a spent budget, or an answer that stayed unusable. */
  fallback?: 'budget' | 'unusable';
}

/** A role call's output and its plays, in input order (one, unless the call was asked again in parts). */
export interface Traced<I, O> {
  output: O;
  plays: Play<I>[];
}

export const AgentCallContext = z.strictObject({ tenantId: z.uuid(), runId: z.uuid(), stepKey: z.string().min(1).max(500) });
export type AgentCallContext = z.infer<typeof AgentCallContext>;

const MAX_ERROR_TEXT = 2000;

/** Outcomes of requests the model answered (and that were paid for); only these carry a reusable answer. */
const ANSWERED = ['ok', 'invalid', 'refused'];

/**
 * The answer this step already received for an identical request: the first such row of the step with a valid
 * recorded answer. Steps are deterministic in their inputs, so a step that runs again after a crash asks the
 * same questions in the same words, and gets the answers it paid for the first time.
 */
async function findRecordedAnswer(
  calls: LlmCallLog,
  ctx: AgentCallContext,
  requestHash: string,
): Promise<{ id: string; answer: RecordedAnswer } | null> {
  const rows = await calls.answered({
    tenantId: ctx.tenantId,
    runId: ctx.runId,
    stepKey: ctx.stepKey,
    requestHash,
    outcomes: ANSWERED,
    limit: 5,
  });
  for (const row of rows) {
    const answer = RecordedAnswer.safeParse(row.answer);
    if (answer.success) return { id: row.id, answer: answer.data };
  }
  return null;
}

/** Budgets whose exhaustion stops spending on the model: the rest of the run is written by the offline engine. */
const SPEND_BUDGETS: readonly BudgetKind[] = ['tokens', 'cost'];

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/**
 * Runs agent roles: validates the input, lets the engine play the role, validates the output, and records every
 * call in llm_calls (role, engine, model, step, tokens, cost, latency, outcome). With a model engine, every
 * request is one row, reserved against the run's budgets before it is sent; when a token or cost budget runs
 * out the run is marked (research stops at the next loop boundary) and the call, like every later one of the
 * run, is played by the offline engine, so nothing more is spent.
 */
export class AgentRunner {
  private readonly fixed: Engine | null;
  private readonly offline = new OfflineEngine();
  private readonly ledger: BudgetLedger | null;
  private readonly answers: ExternalAnswers;
  private openaiEngine: Engine | null = null;

  constructor(
    private readonly calls: LlmCallLog,
    private readonly options: AgentRunnerOptions,
  ) {
    this.fixed = options.engine === 'offline' ? this.offline : options.engine === 'per-run' ? null : options.engine;
    if (options.engine === 'per-run' && !options.perRun) throw new Error("AgentRunner: engine 'per-run' needs perRun settings");
    this.ledger = options.perRun ? new BudgetLedger(options.perRun.store, options.perRun.staleReservationMs) : null;
    this.answers = options.answers ?? LIVE_ANSWERS;
  }

  /** The fixed engine's name, or 'per-run'. */
  get engineName(): string {
    return this.fixed?.name ?? 'per-run';
  }

  async run<I, O>(role: AgentRole<I, O>, input: I, ctx: AgentCallContext): Promise<O> {
    return (await this.runTraced(role, input, ctx)).output;
  }

  /**
   * Like `run`, and says who played each part of the call: the model, or the offline engine in its place (a spent
   * budget, an unusable answer). A batch role whose answer had the wrong shape for its batch is asked again in halves,
   * down to single items, before any offline play (decision 0040); each part is a play, in input order.
   */
  async runTraced<I, O>(role: AgentRole<I, O>, input: I, ctx: AgentCallContext): Promise<Traced<I, O>> {
    const context = AgentCallContext.safeParse(ctx);
    if (!context.success) {
      throw new AgentInputError(`Invalid call context for agent role ${role.name}: ${issues(context.error)}`, {
        details: { role: role.name },
      });
    }
    const parsed = role.input.safeParse(input);
    if (!parsed.success) {
      throw new AgentInputError(`Invalid input for agent role ${role.name}: ${issues(parsed.error)}`, {
        runId: ctx.runId,
        details: { role: role.name, issues: parsed.error.issues },
      });
    }
    // A role with nothing to work on is not called: no request, no row (decision 0019).
    const idle = role.idle?.(parsed.data) ?? null;
    if (idle !== null) return { output: this.checked(role, this.offline, idle, ctx), plays: [] };
    const { engine, limits } = await this.engineFor(ctx);
    const play = (output: O, by: string, fallback?: Play<I>['fallback']): Traced<I, O> => ({
      output,
      plays: [{ input: parsed.data, engine: by, ...(fallback ? { fallback } : {}) }],
    });
    if (engine.recordsRequests) {
      try {
        const done = await engine.complete(role, parsed.data, this.hooks(role.name, engine.name, ctx, limits));
        return play(this.checked(role, engine, done.output, ctx), engine.name);
      } catch (err) {
        if (err instanceof BudgetExhaustedSignal) {
          await this.options.perRun?.budgetSink?.markBudgetExhausted(ctx.tenantId, ctx.runId, err.budget, 'agents');
          // Nothing more is spent on the model: this call and the run's later ones are written offline.
          return play(await this.runRecorded(role, this.offline, parsed.data, ctx, { fallback: 'budget' }), this.offline.name, 'budget');
        }
        const split = err instanceof AgentOutputError && err.details?.['askInParts'] === true ? role.split?.(parsed.data) : null;
        if (split) {
          const a = await this.runTraced(role, split.parts[0], ctx);
          const b = await this.runTraced(role, split.parts[1], ctx);
          return { output: this.checked(role, engine, split.join([a.output, b.output]), ctx), plays: [...a.plays, ...b.plays] };
        }
        // The model's answer stayed unusable after its repairs (or it refused): an optional role is skipped for this
        // step, a required one is played offline for this one call. The engine's last row says which (notes.gaveUp).
        if (err instanceof AgentOutputError || err instanceof AgentRefusalError) {
          if (role.skipped) return play(this.checked(role, engine, role.skipped(parsed.data), ctx), 'skipped');
          return play(
            await this.runRecorded(role, this.offline, parsed.data, ctx, { fallback: 'unusable' }, err),
            this.offline.name,
            'unusable',
          );
        }
        throw err;
      }
    }
    return play(await this.runRecorded(role, engine, parsed.data, ctx), engine.name);
  }

  /** The engine a call uses: the fixed one, or the run's (offline once its token or cost budget is spent). */
  private async engineFor(ctx: AgentCallContext): Promise<{ engine: Engine; limits: { tokens?: number; costUsd?: number } }> {
    if (this.fixed) return { engine: this.fixed, limits: {} };
    const perRun = this.options.perRun!;
    const run = await perRun.store.runSettings(ctx.tenantId, ctx.runId);
    const options = RunOptions.safeParse(run?.options ?? {});
    if (!run || !options.success || options.data.engine === 'offline') return { engine: this.offline, limits: {} };
    if (run.budgetExhausted && SPEND_BUDGETS.includes(run.budgetExhausted as BudgetKind)) return { engine: this.offline, limits: {} };
    this.openaiEngine ??= perRun.openai();
    return { engine: this.openaiEngine, limits: { tokens: options.data.budgets.tokens, costUsd: options.data.budgets.costUsd } };
  }

  private hooks(role: string, engine: string, ctx: AgentCallContext, limits: { tokens?: number; costUsd?: number }): CallHooks {
    const ledger = this.ledger;
    const answers = this.answers;
    const call = (hash: string): ExternalCall => ({ kind: 'model', request: hash, name: `${role} request` });
    // This step's own answer to the same request (it ran before and its process died), else, in a replay, the
    // replayed run's answer — or ReplayAnswerMissingError, never the network (decision 0030).
    const recordedAnswer = async (hash: string) => {
      const own = await findRecordedAnswer(this.calls, ctx, hash);
      // Linked again (an upsert): the attempt that paid for it may have died between its llm_calls row and the link.
      if (own) await answers.record(call(hash), own.answer);
      return own ?? (await answers.replayed(call(hash), RecordedAnswer).then((r) => (r ? { id: 'replayed', answer: r.answer } : null)));
    };
    if (!ledger) {
      // A fixed model engine without the ledger (tests): one row per request, no budget.
      let hash: string | undefined;
      return {
        stepKey: ctx.stepKey,
        recordedAnswer,
        beforeRequest: async (_estimate, requestHash) => {
          hash = requestHash;
          return { id: '' };
        },
        afterRequest: async (_t, { answer, ...r }) => {
          recordLlmUsage(r);
          if (answer && hash) await answers.record(call(hash), answer);
          await this.calls.record({
            tenantId: ctx.tenantId,
            runId: ctx.runId,
            stepKey: ctx.stepKey,
            role,
            engine,
            ...r,
            requestHash: hash ?? null,
            ...(answer ? { answer } : {}),
          });
        },
      };
    }
    let hash: string | undefined;
    return {
      stepKey: ctx.stepKey,
      recordedAnswer,
      beforeRequest: async (estimate, requestHash) => {
        hash = requestHash;
        const reserved = await ledger.reserve({ ...ctx, role, engine, ...(requestHash ? { requestHash } : {}) }, estimate, limits);
        if ('exhausted' in reserved) throw new BudgetExhaustedSignal(reserved.exhausted);
        return reserved;
      },
      afterRequest: async (ticket, record) => {
        recordLlmUsage(record);
        // Two independent writes, sent together: a process that dies between them is covered either way. Without the
        // link, the step's next attempt finds its own answer in llm_calls and links it (recordedAnswer above); without
        // the settle, the reservation goes stale and the next attempt asks again, as if neither had been written.
        await Promise.all([
          record.answer && hash ? answers.record(call(hash), record.answer) : undefined,
          ledger.settle(ctx.tenantId, ticket.id, record),
        ]);
      },
    };
  }

  private checked<I, O>(role: AgentRole<I, O>, engine: Engine, output: unknown, ctx: AgentCallContext): O {
    const out = role.output.safeParse(output);
    if (!out.success) {
      throw new AgentOutputError(`Invalid output from agent role ${role.name} (engine ${engine.name}): ${issues(out.error)}`, {
        runId: ctx.runId,
        details: { role: role.name, issues: out.error.issues },
      });
    }
    return out.data;
  }

  /**
   * An engine that does not record its own requests: one row for the call. `notes.fallback` marks an offline call
   * played in place of the model; if that fails too, the run fails naming both.
   */
  private async runRecorded<I, O>(
    role: AgentRole<I, O>,
    engine: Engine,
    input: I,
    ctx: AgentCallContext,
    notes?: LlmCallNotes,
    modelError?: Error,
  ): Promise<O> {
    const started = performance.now();
    let completion: EngineCompletion<O>;
    try {
      // The OpenAI engine spans each HTTP request itself; an engine that records nothing gets one span per call.
      completion = await withLlmSpan({ provider: engine.name, model: engine.model, role: role.name }, () => engine.complete(role, input));
    } catch (err) {
      await this.recordFailure(role.name, engine, ctx, started, err, {
        model: engine.model,
        tokensIn: countWords(input),
        tokensOut: 0,
        costUsd: 0,
      });
      if (modelError) {
        throw new AgentOutputError(
          `${modelError.message.slice(0, 1000)}; and the offline engine, playing ${role.name} in its place, failed too: ${describeError(err).message}`,
          { cause: err, runId: ctx.runId, details: { role: role.name } },
        );
      }
      throw err;
    }
    const output = role.output.safeParse(completion.output);
    if (!output.success) {
      const err = new AgentOutputError(`Invalid output from agent role ${role.name} (engine ${engine.name}): ${issues(output.error)}`, {
        runId: ctx.runId,
        details: { role: role.name, issues: output.error.issues },
      });
      await this.recordFailure(role.name, engine, ctx, started, err, completion);
      throw err;
    }
    await this.record(role.name, engine, ctx, started, completion, 'ok', null, notes);
    return output.data;
  }

  private async record(
    role: string,
    engine: Engine,
    ctx: AgentCallContext,
    started: number,
    usage: Omit<EngineCompletion<unknown>, 'output'>,
    outcome: 'ok' | 'error',
    error: string | null,
    notes?: LlmCallNotes,
  ): Promise<void> {
    // A call of an engine that sends no request (offline) is a play, not model use: no request, no tokens (decision 0040).
    if (engine.recordsRequests) recordLlmUsage(usage);
    else recordOfflinePlay(role);
    await this.calls.record({
      tenantId: ctx.tenantId,
      runId: ctx.runId,
      stepKey: ctx.stepKey,
      role,
      engine: engine.name,
      model: usage.model,
      tokensIn: usage.tokensIn,
      tokensOut: usage.tokensOut,
      costUsd: usage.costUsd,
      latencyMs: Math.max(0, Math.round(performance.now() - started)),
      outcome,
      error,
      ...(notes ? { notes } : {}),
    });
  }

  /** Records a failed call; if even that fails, says so without losing either error. */
  private async recordFailure(
    role: string,
    engine: Engine,
    ctx: AgentCallContext,
    started: number,
    err: unknown,
    usage: Omit<EngineCompletion<unknown>, 'output'>,
  ): Promise<void> {
    const described = describeError(err);
    try {
      await this.record(role, engine, ctx, started, usage, 'error', `${described.name}: ${described.message}`.slice(0, MAX_ERROR_TEXT));
    } catch (recordErr) {
      throw new AgentCallRecordError(`Agent role ${role} failed (${described.message}) and the call could not be recorded`, {
        cause: recordErr,
        runId: ctx.runId,
        details: { role, roleError: described },
      });
    }
  }
}
