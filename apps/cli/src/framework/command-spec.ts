import type { DossierClient } from '@dossier/client';
import type { Output } from '../output';

export type Transport = 'local' | 'api';

export type WorkerMode = boolean | 'on-demand';

export interface ArgumentSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
}

export interface OptionSpec {
  /** Commander syntax: `--engine <name>`, `--reject`, `-h, --help`. */
  flags: string;
  description: string;
  /** Turns the text into the value, throwing CliUsageError with a message that names the flag. */
  parse?: (value: string, previous: unknown) => unknown;
  default?: unknown;
}

/** What a command's `run` gets: its arguments and options, already parsed and validated, and the transport. */
export interface CommandContext<O> {
  /** Positional arguments in declared order; a variadic one is an array. */
  args: (string | string[] | undefined)[];
  opts: O;
  out: Output;
  transport: Transport;
  /** How to run another command the same way, for messages: `dossier` or `dossier --api URL`. */
  invocation: string;
  /** The transport's client, opened on first use and closed after the command. */
  client(): Promise<DossierClient>;
}

/**
 * One CLI command, declared once: its arguments, options and help, the transports it works over, and what it
 * does against `DossierClient`. The framework (build-program.ts) turns the table of these into the program,
 * generating `--help` for every command and subcommand.
 */
export interface CommandSpec<O = Record<string, unknown>> {
  name: string;
  description: string;
  arguments?: ArgumentSpec[];
  options?: OptionSpec[];
  /** Extra help text (examples) shown after the options. */
  help?: string;
  /**
   * Local transport: host every stage worker and the conductor's loops in this process — from the start (`true`:
   * commands that run research), or once the command starts or resumes a run (`'on-demand'`: `mcp`, whose own startup
   * and read-only tools need none). Default: none (commands that only read or decide).
   */
  workers?: WorkerMode;
  /** Transports the command works over (default both). */
  transports?: readonly Transport[];
  subcommands?: CommandSpec<never>[];
  /** Exit code (default 0). */
  run?(ctx: CommandContext<O>): Promise<number | void>;
}

/** Declares a command with its options' type (the type of `opts` in `run`). */
export function defineCommand<O>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}
