import { defineCommand } from '../framework/command-spec';
import { runIdArg } from '../framework/option-parsers';

export const cancelCommand = defineCommand<{ reason?: string }>({
  name: 'cancel',
  description: 'Cancel a running or waiting run (dossier resume continues it later)',
  arguments: [{ name: 'run', description: 'the run id', required: true }],
  options: [{ flags: '--reason <text>', description: 'why (recorded on the run and in its audit log)' }],
  async run({ args, opts, out, client }) {
    const run = await (await client()).cancel(runIdArg(args[0] as string), opts.reason);
    out.line(`Run ${run.id} is ${run.status}.`);
  },
});
