import type { z } from 'zod';
import type { Prompt } from '../prompt/build-prompt';

/**
 * One agent role (docs/architecture.md §6): a typed function with a zod input and output, the prompt an LLM engine sends,
 * and the deterministic offline implementation. Engines are interchangeable behind the same schemas. A role's file
 * (roles/<role>.ts) holds its definition; its offline play lives in offline/roles/<role>.ts, and the registry
 * (roles/index.ts) joins the two (docs/decisions/0088).
 */
export interface AgentRole<I, O, Name extends string = string> extends RoleDefinition<I, O, Name> {
  /** The offline engine's play of the role: deterministic heuristics over the input (offline/roles/<role>.ts). */
  offline(input: I): O;
}

/** What a role is to a model: its name, schemas, prompt and checks of a model's answer; no offline heuristics. */
export interface RoleDefinition<I, O, Name extends string = string> {
  /** The role's name, declared here only: the registry (roles/index.ts) derives `RoleName` and `ROLE_NAMES` from it. */
  name: Name;
  /** A model engine's temperature when OPENAI_TEMPERATURE_<ROLE> is unset: judges low, writers a little higher. */
  temperature: number;
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  prompt(input: I): Prompt;
  /**
   * Model answers only: anchors the raw reply to the input before validation (e.g. finds each excerpt in the source
   * text and takes its offsets from there, dropping what is not a verbatim passage). Issues are shown to the model.
   */
  ground?(input: I, raw: unknown): { value: unknown; issues: string[] };
  /**
   * Model answers only: what the schema cannot see — ids checked by kind against the ids this role was given, URLs in
   * text, an empty answer to a non-empty task — and the answer without what is wrong (decision 0019).
   */
  check?(input: I, output: O): ReferenceCheck<O>;
  /**
   * Optional roles only (counter-evidence, coverage, moderator follow-ups): what a call returns when the model's answer
   * is still unusable after its repairs, so the step goes on without it. Required roles are played offline instead.
   */
  skipped?(input: I): O;
  /** A role with nothing to work on is not called: its output for such an input, or null when there is work. */
  idle?(input: I): O | null;
  /**
   * Batch roles only: the input in two parts whose outputs `join` makes the output of the whole, or null when it
   * cannot be split further (one sentence, one evidence item). A model engine splits an input too large for its
   * model's window, and the verifier's caller asks again in halves when an answer has the wrong shape (decision 0040).
   */
  split?(input: I): InputSplit<I, O> | null;
  /**
   * Roles whose input cannot be split but can do without some of it (the outline, over fewer claims): the input with its
   * least needed part left out, or null when nothing more can go. A model engine fits a request too large for its
   * model's window with it, step by step, before it gives up with a ContextWindowError (decision 0150).
   */
  fit?(input: I): I | null;
}

/** An input in two parts, and how their outputs make one. */
export interface InputSplit<I, O> {
  parts: readonly [I, I];
  join(outputs: readonly [O, O]): O;
}

/** What a role's check found in a validated answer. */
export interface ReferenceCheck<O> {
  /** What is wrong, for the repair request. */
  issues: string[];
  /**
   * The answer with every bad reference removed or reset (an unknown parent becomes none, a sentence loses the ids it
   * may not cite, an item naming an unknown id is dropped) and soft limits applied; null when nothing usable is left.
   * Used as is when there are no issues, and after the repair request when they remain.
   */
  cleaned: O | null;
  /** References removed or reset in `cleaned`. */
  dropped: number;
  /** Items cut to a soft limit in `cleaned` (more items than asked for). */
  trimmed?: number;
  /**
   * The answer has the wrong shape for a batch this size (findings that do not match the sentences one to one): no
   * repair request is sent; the caller asks again in smaller parts (decision 0040).
   */
  askInParts?: boolean;
}

/** A role of any input and output, for registries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentRole = AgentRole<any, any>;

export type RoleInput<R> = R extends AgentRole<infer I, unknown> ? I : never;
export type RoleOutput<R> = R extends AgentRole<unknown, infer O> ? O : never;

/** A role: its definition (roles/<role>.ts) with its offline play (offline/roles/<role>.ts). */
export function withOfflinePlay<I, O, Name extends string>(
  definition: RoleDefinition<I, O, Name>,
  offline: (input: I) => O,
): AgentRole<I, O, Name> {
  return { ...definition, offline };
}
