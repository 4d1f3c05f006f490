import type { z } from 'zod';
import type { Prompt } from '../prompt/build-prompt';

/**
 * One agent role (docs/architecture.md §6): a typed function with a zod input and output, the prompt an LLM engine sends,
 * and the deterministic offline implementation. Engines are interchangeable behind the same schemas.
 */
export interface AgentRole<I, O, Name extends string = string> {
  /** The role's name, declared here only: the registry (roles/index.ts) derives `RoleName` and `ROLE_NAMES` from it. */
  name: Name;
  /** A model engine's temperature when OPENAI_TEMPERATURE_<ROLE> is unset: judges low, writers a little higher. */
  temperature: number;
  input: z.ZodType<I>;
  output: z.ZodType<O>;
  prompt(input: I): Prompt;
  offline(input: I): O;
  /**
   * Model answers only: anchors the raw reply to the input before validation (e.g. finds each excerpt in the source
   * text and takes its offsets from there, dropping what is not a verbatim passage). Issues are shown to the model.
   */
  ground?(input: I, raw: unknown): { value: unknown; issues: string[] };
  /** Model answers only: what the schema cannot see, e.g. a citation of an id that was never given, or a URL. */
  check?(input: I, output: O): string[];
}

/** A role of any input and output, for registries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentRole = AgentRole<any, any>;

export type RoleInput<R> = R extends AgentRole<infer I, unknown> ? I : never;
export type RoleOutput<R> = R extends AgentRole<unknown, infer O> ? O : never;
