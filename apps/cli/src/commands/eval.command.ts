import { readFile } from 'node:fs/promises';
import { ReportJson } from '@dossier/contracts';
import { CliUsageError } from '../cli-error';
import type { EvalFlags } from '../eval/run-eval';
import { defineCommand } from '../framework/command-spec';
import { oneOf, positiveInt } from '../framework/option-parsers';

/** The eval library (scorers, report writers) is loaded when an eval command runs, not for every `dossier` (issue 28: --help, runs). */
function evals(): typeof import('@dossier/evals') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, see above
  return require('@dossier/evals') as typeof import('@dossier/evals');
}

async function readReport(file: string) {
  const { EvalReportError, parseEvalReport } = evals();
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CliUsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return parseEvalReport(text, file);
  } catch (err) {
    if (err instanceof EvalReportError) throw new CliUsageError(err.message);
    throw err;
  }
}

const compareCommand = defineCommand({
  name: 'compare',
  description: 'Print the difference per metric between two eval reports (eval.json): B − A',
  arguments: [
    { name: 'a', description: 'the eval.json before', required: true },
    { name: 'b', description: 'the eval.json after', required: true },
  ],
  async run({ args, out }) {
    const a = await readReport(args[0] as string);
    const b = await readReport(args[1] as string);
    for (const line of evals().formatComparison(a, b)) out.line(line);
  },
});

const lintCommand = defineCommand({
  name: 'lint',
  description: 'Print the report lint of report.json files (leaked markup, repeats, fragments, boilerplate, template headings…)',
  arguments: [
    { name: 'reports', description: 'report.json files (e.g. out/report.json after npm run demo)', required: true, variadic: true },
  ],
  async run({ args, out }) {
    const files = (Array.isArray(args[0]) ? args[0] : args) as string[];
    for (const file of files) {
      let json: unknown;
      try {
        json = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new CliUsageError(`Cannot read ${file} as JSON: ${(err as Error).message}`);
      }
      const parsed = ReportJson.safeParse(json);
      if (!parsed.success) throw new CliUsageError(`${file} is not a report.json: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      out.line(file);
      for (const line of evals().formatLint(evals().lintReport(parsed.data))) out.line(line);
    }
  },
});

export const evalCommand = defineCommand<EvalFlags>({
  name: 'eval',
  description: 'Run an eval set: research every question, score the reports, write eval.md, eval.html and eval.json',
  arguments: [{ name: 'set', description: 'a set name under evals/sets (e.g. lake-varen) or the path of a set folder', required: true }],
  options: [
    {
      flags: '--collection <name>',
      description: 'the collection to search (default eval-SET; ingested from the set when it does not exist)',
    },
    {
      flags: '--engine <name>',
      description: 'offline, or openai (OPENAI_BASE_URL, OPENAI_MODEL; the verifier model, OPENAI_MODEL_VERIFIER, judges)',
      parse: oneOf('engine', ['offline', 'openai']),
      default: 'offline',
    },
    {
      flags: '--mode <mode>',
      description: 'survey, interviews or hybrid (as dossier research --mode), to compare the modes on one set',
      parse: oneOf('mode', ['survey', 'interviews', 'hybrid']),
      default: 'survey',
    },
    { flags: '--out <dir>', description: 'where eval.md, eval.html, eval.json and each question’s report go (default out/eval/SET)' },
    { flags: '--questions <n>', description: 'run only the first N questions', parse: positiveInt('questions') },
  ],
  workers: true,
  subcommands: [compareCommand as never, lintCommand as never],
  help: [
    'Examples:',
    '  dossier eval lake-varen',
    '  dossier eval lake-varen --engine openai --questions 3 --out out/eval-openai',
    '  dossier eval ./my-set --collection mine',
    '  dossier eval compare out/eval/lake-varen/eval.json out/eval-new/eval.json',
    '  dossier eval lint out/report.json',
  ].join('\n'),
  async run({ args, opts, out, client }) {
    const ref = (args[0] as string | undefined)?.trim();
    if (!ref) throw new CliUsageError('eval needs a SET: a set name under evals/sets or the path of a set folder');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, as `evals()`
    const { runEval } = require('../eval/run-eval') as typeof import('../eval/run-eval');
    await runEval(await client(), out, ref, opts);
  },
});
