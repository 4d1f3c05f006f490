import { defineCommand } from '../framework/command-spec';
import { positiveInt } from '../framework/option-parsers';

export const runsCommand = defineCommand<{ limit: number }>({
  name: 'runs',
  description: "This tenant's runs, newest first",
  options: [{ flags: '--limit <n>', description: 'how many (at most 100)', parse: positiveInt('limit'), default: 100 }],
  async run({ opts, out, client }) {
    const runs = await (await client()).runs(Math.min(100, opts.limit));
    if (runs.length === 0) return void out.line('No runs yet.');
    for (const r of runs) out.line(`${r.id}  ${r.status.padEnd(17)}  ${r.createdAt.slice(0, 19)}  ${r.question}`);
  },
});
