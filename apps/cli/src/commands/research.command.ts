import path from 'node:path';
import { CliUsageError } from '../cli-error';
import { defineCommand } from '../framework/command-spec';
import { FORMAT_FLAG, RESEARCH_FLAGS, type ResearchFlags } from '../research/research-flags';
import { runResearch } from '../research/run-research';

export const researchCommand = defineCommand<ResearchFlags>({
  name: 'research',
  description: 'Research a question and write report.md, report.html, report.json and report.pdf',
  arguments: [{ name: 'question', description: 'the research question (quote it)', required: true }],
  options: RESEARCH_FLAGS,
  workers: true,
  help: [
    'Examples:',
    '  dossier research "What does the literature say about X?" --collection mine --out ./out',
    '  dossier research "…" --corpus ./folder --max-iterations 2 --perspectives 4 --approve prompt',
    '  dossier research "…" --search searxng,corpus --engine openai --budget-tokens 400000 --budget-cost 2',
  ].join('\n'),
  async run({ args, opts, out, client, invocation }) {
    const question = (args[0] as string | undefined)?.trim();
    if (!question) throw new CliUsageError('research needs one non-empty QUESTION (quote it)');
    await runResearch(await client(), out, question, opts, invocation);
  },
});

export const DEMO_QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";

export const demoCommand = defineCommand<Pick<ResearchFlags, 'out' | 'format'>>({
  name: 'demo',
  description: 'Ingest examples/corpus and research the demo question offline into ./out',
  arguments: [{ name: 'question', description: `another question about the example corpus (default: "${DEMO_QUESTION}")` }],
  options: [{ flags: '--out <dir>', description: 'where the reports go', default: 'out' }, FORMAT_FLAG],
  workers: true,
  async run({ args, opts, out, client, invocation }) {
    await runResearch(
      await client(),
      out,
      (args[0] as string | undefined)?.trim() || DEMO_QUESTION,
      {
        corpus: [path.resolve(__dirname, '../../../../examples/corpus')],
        collection: 'examples',
        out: opts.out,
        format: opts.format,
        engine: 'offline',
        search: ['corpus'],
        mode: 'survey',
        approve: 'auto',
      },
      invocation,
    );
  },
});
