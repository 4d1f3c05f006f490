import { Argument, Command, CommanderError, Option } from 'commander';
import { CliUsageError } from '../cli-error';
import { GatewayHttp, type DossierClient } from '@dossier/client';
import { Output } from '../output';
import { startCliTelemetry } from '../tracing';
import type { CommandSpec, Transport, WorkerMode } from './command-spec';
import { CliRemoteEnv, environment } from '@dossier/config';

export interface GlobalOptions {
  api?: string;
  key?: string;
}

/** The transport the global options (or DOSSIER_API_URL / DOSSIER_API_KEY) choose. */
export function chooseTransport(global: GlobalOptions, env: NodeJS.ProcessEnv): { transport: Transport; http?: GatewayHttp } {
  const remote = CliRemoteEnv.parse(env);
  const api = global.api ?? (remote.DOSSIER_API_URL || undefined);
  if (!api) return { transport: 'local' };
  const key = global.key ?? (remote.DOSSIER_API_KEY || undefined);
  if (!key) throw new CliUsageError('--api needs --key KEY (or DOSSIER_API_KEY)');
  if (!/^https?:\/\/[^\s]+$/.test(api)) throw new CliUsageError(`--api takes the gateway's URL, e.g. http://localhost:8080; got "${api}"`);
  return { transport: 'api', http: new GatewayHttp(api, key) };
}

/**
 * The local transport boots the whole engine (every stage module, Prisma, BullMQ): loaded only when a command
 * uses it, so help, usage errors and --api commands start in a fraction of the time.
 */
async function openLocal(workers: WorkerMode): Promise<DossierClient> {
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy loads, see above */
  // Postgres and Redis first: unreachable, the command says so in seconds, before the engine is loaded (issue 28).
  await (require('../service-check') as typeof import('../service-check')).checkLocalServices();
  startCliTelemetry();
  const { LocalClient } = require('../client/local-client') as typeof import('../client/local-client');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return LocalClient.open(workers);
}

function openHttp(http: GatewayHttp): DossierClient {
  startCliTelemetry();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load: ingestion's file walker is large
  const { openHttpClient } = require('../client/http-transport') as typeof import('../client/http-transport');
  return openHttpClient(http);
}

/** Where the command's exit code is left by the action that ran (commander's actions return nothing useful). */
export interface ProgramResult {
  code: number;
}

function commandFor(
  spec: CommandSpec<never>,
  program: Command,
  result: ProgramResult,
  env: NodeJS.ProcessEnv,
  inherited: readonly Transport[] = ['local', 'api'],
): Command {
  // A subcommand works over what its parent allows (`admin`'s are local only).
  const transports = spec.transports ?? inherited;
  const cmd = new Command(spec.name)
    .description(spec.description)
    .exitOverride()
    .configureOutput({ outputError: () => undefined });
  for (const a of spec.arguments ?? []) {
    const syntax = a.required ? `<${a.name}${a.variadic ? '...' : ''}>` : `[${a.name}${a.variadic ? '...' : ''}]`;
    cmd.addArgument(new Argument(syntax, a.description));
  }
  for (const o of spec.options ?? []) {
    const option = new Option(o.flags, o.description);
    if (o.parse) option.argParser(o.parse);
    if (o.default !== undefined) option.default(o.default);
    cmd.addOption(option);
  }
  if (spec.help) cmd.addHelpText('after', `\n${spec.help}`);
  for (const sub of spec.subcommands ?? []) cmd.addCommand(commandFor(sub, program, result, env, transports));
  if (spec.run) {
    const run = spec.run.bind(spec);
    cmd.action(async (...params: unknown[]) => {
      const args = params.slice(0, spec.arguments?.length ?? 0) as (string | string[] | undefined)[];
      const opts = cmd.opts() as never;
      const { transport, http } = chooseTransport(program.opts<GlobalOptions>(), env);
      if (!transports.includes(transport)) {
        throw new CliUsageError(
          transport === 'api'
            ? `${[cmd.parent?.name(), cmd.name()].filter((n) => n && n !== 'dossier').join(' ')} works on the local database; it is not available with --api`
            : `${cmd.name()} is available through the gateway: dossier --api URL --key KEY ${cmd.name()} …`,
        );
      }
      let client: DossierClient | undefined;
      try {
        const code = await run({
          args,
          opts,
          out: new Output(),
          transport,
          invocation: http ? `dossier --api ${http.base}` : 'dossier',
          client: async () => (client ??= http ? openHttp(http) : await openLocal(spec.workers ?? false)),
        });
        result.code = code ?? 0;
      } finally {
        await client?.close();
      }
    });
  }
  return cmd;
}

/** The `dossier` program: global options, then every command of the table with generated help. */
export function buildProgram(commands: CommandSpec<never>[], result: ProgramResult, env: NodeJS.ProcessEnv = environment()): Command {
  const program = new Command('dossier')
    .description('Deep research with verified citations: every sentence of the report cites the passage that supports it.')
    .option('--api <url>', 'run the command through a gateway at this URL (or DOSSIER_API_URL); progress streams over SSE')
    .option('--key <key>', 'API key for --api (or DOSSIER_API_KEY)')
    .helpCommand(true)
    .exitOverride()
    .configureOutput({ outputError: () => undefined });
  program.addHelpText(
    'after',
    '\nLocal mode (no --api) runs every stage in this process on DATABASE_URL and REDIS_URL as tenant DOSSIER_TENANT.\n' +
      'Each command has its own help: dossier help research, dossier admin --help.',
  );
  for (const spec of commands) {
    program.addCommand(commandFor(spec, program, result, env));
  }
  return program;
}

/** A commander parse error as the message the user reads, and whether it was a request for help (exit 0). */
export function describeCommanderError(err: CommanderError): { message: string | null; code: number } {
  switch (err.code) {
    case 'commander.helpDisplayed':
    case 'commander.version':
      return { message: null, code: 0 };
    case 'commander.help':
      // `dossier help X` (exit code 0), or help printed because no command was given (an error).
      return { message: null, code: err.exitCode === 0 ? 0 : 2 };
    case 'commander.unknownCommand': {
      const name = /'([^']*)'/.exec(err.message)?.[1] ?? '';
      return { message: `Unknown command "${name}": dossier --help lists the commands`, code: 2 };
    }
    default:
      return { message: err.message.replace(/^error: /, ''), code: 2 };
  }
}
