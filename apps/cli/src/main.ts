import './tracing';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { describeError, DossierError } from '@dossier/errors';
import { openContext, type CliContext } from './cli-context';
import { CliUsageError } from './cli-error';
import { interventionFromFlags, interveneCommand } from './commands/intervene.command';
import { ingest } from './commands/ingest.command';
import { approve, listRuns, showRun, sourceText } from './commands/inspect.commands';
import { research, resumeRun, type ResearchArgs } from './commands/research.command';
import { Output } from './output';
import { apiApprove, apiIngest, apiIntervene, apiListRuns, apiResearch, apiRunAction, apiShowRun } from './api/api-commands';
import { GatewayClient } from './api/gateway-client';
import { admin } from './commands/admin.commands';

const USAGE = `dossier — deep research with verified citations

  dossier ingest PATH... [--collection NAME]
  dossier research "QUESTION" [--corpus PATH] [--collection NAME] [--out DIR] [--engine offline|openai]
                   [--search corpus,searxng,tavily,brave] [--perspectives N] [--max-iterations N] [--approve auto|prompt]
                   [--budget-tokens N] [--budget-cost USD] [--budget-time SECONDS]
  dossier resume RUN [--out DIR]   continue a run whose process stopped or that failed
  dossier runs
  dossier show RUN
  dossier approve RUN GATE [--reject --feedback TEXT]
  dossier intervene RUN --add-question TEXT | --exclude-domain DOMAIN | --exclude-source SOURCE_ID | --narrow-scope TEXT
  dossier source-text SOURCE
  dossier demo            ingest examples/corpus and research the default question into ./out

  Through a gateway (or DOSSIER_API_URL / DOSSIER_API_KEY): progress streams from its SSE endpoint
  dossier --api URL --key KEY ingest|research|runs|show|approve|intervene|cancel|resume|demo …

  Operators (straight in the database at DATABASE_URL):
  dossier admin create-tenant NAME [--policy JSON]
  dossier admin create-key TENANT [--name PRINCIPAL] [--role member|admin|viewer]
  dossier admin revoke-key PREFIX
  dossier admin set-policy TENANT JSON`;

export const DEMO_QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliUsageError(`--${name} must be a whole number ≥ 1, got "${value}"`);
  return n;
}

function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliUsageError(`--${name} must be a number > 0, got "${value}"`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      'add-question': { type: 'string' },
      'exclude-domain': { type: 'string' },
      'exclude-source': { type: 'string' },
      'narrow-scope': { type: 'string' },
      collection: { type: 'string', default: 'default' },
      corpus: { type: 'string', multiple: true },
      out: { type: 'string', default: 'out' },
      engine: { type: 'string', default: 'offline' },
      search: { type: 'string', default: 'corpus' },
      perspectives: { type: 'string' },
      'max-iterations': { type: 'string' },
      'budget-tokens': { type: 'string' },
      'budget-cost': { type: 'string' },
      'budget-time': { type: 'string' },
      approve: { type: 'string', default: 'auto' },
      reject: { type: 'boolean', default: false },
      feedback: { type: 'string' },
      api: { type: 'string' },
      key: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      policy: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const apiUrl = values.api ?? (process.env['DOSSIER_API_URL'] || undefined);
  if (command === 'intervene' && !apiUrl) return interveneCommand(rest[0], values);
  const out = new Output();
  const withWorkers = command === 'research' || command === 'demo' || command === 'resume';
  if (
    !['ingest', 'research', 'resume', 'runs', 'show', 'approve', 'source-text', 'demo', 'admin', 'cancel', 'intervene'].includes(command)
  ) {
    throw new CliUsageError(`Unknown command "${command}"\n${USAGE}`);
  }
  if (values.engine !== 'offline' && values.engine !== 'openai')
    throw new CliUsageError(`--engine must be offline or openai, got "${values.engine}"`);
  if (values.approve !== 'auto' && values.approve !== 'prompt')
    throw new CliUsageError(`--approve must be auto or prompt, got "${values.approve}"`);
  const search = values.search
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (search.length === 0 || search.some((p) => !/^[a-z][a-z0-9_-]*$/.test(p)))
    throw new CliUsageError(`--search takes provider names separated by commas, e.g. searxng,corpus; got "${values.search}"`);
  const perspectives = positiveInt('perspectives', values.perspectives);
  const maxIterations = positiveInt('max-iterations', values['max-iterations']);
  const budgetTokens = positiveInt('budget-tokens', values['budget-tokens']);
  const budgetCost = positiveNumber('budget-cost', values['budget-cost']);
  const budgetSeconds = positiveNumber('budget-time', values['budget-time']);
  const budgets = {
    ...(budgetTokens ? { tokens: budgetTokens } : {}),
    ...(budgetCost ? { costUsd: budgetCost } : {}),
    ...(budgetSeconds ? { wallTimeMs: Math.round(budgetSeconds * 1000) } : {}),
  };
  // One set of research arguments for both modes: the same flags mean the same run locally and through a gateway.
  const researchArgs = (): ResearchArgs => ({
    question: command === 'demo' ? (rest[0] ?? DEMO_QUESTION) : rest[0]!,
    ...(command === 'demo'
      ? { corpus: [path.resolve(__dirname, '../../../examples/corpus')] }
      : values.corpus
        ? { corpus: values.corpus }
        : {}),
    collection: command === 'demo' ? 'examples' : values.collection,
    out: values.out,
    engine: values.engine as ResearchArgs['engine'],
    search: command === 'demo' ? ['corpus'] : search,
    approve: values.approve as ResearchArgs['approve'],
    ...(perspectives ? { perspectives } : {}),
    ...(maxIterations ? { maxIterations } : {}),
    budgets,
  });
  if (command === 'ingest' && rest.length === 0) throw new CliUsageError('ingest needs at least one PATH');
  if (command === 'research' && (rest.length !== 1 || !rest[0]!.trim()))
    throw new CliUsageError('research needs one non-empty QUESTION (quote it)');

  if (command === 'admin') {
    await admin(out, rest[0], rest.slice(1), {
      databaseUrl: process.env['DATABASE_URL'] || 'postgresql://postgres@127.0.0.1:5432/dossier',
      ...(values.name ? { name: values.name } : {}),
      ...(values.role ? { role: values.role } : {}),
      ...(values.policy ? { policy: values.policy } : {}),
    });
    return 0;
  }
  if (apiUrl) {
    const key = values.key ?? process.env['DOSSIER_API_KEY'];
    if (!key) throw new CliUsageError('--api needs --key KEY (or DOSSIER_API_KEY)');
    if (!/^https?:\/\/[^\s]+$/.test(apiUrl))
      throw new CliUsageError(`--api takes the gateway's URL, e.g. http://localhost:8080; got "${apiUrl}"`);
    const client = new GatewayClient(apiUrl, key);
    switch (command) {
      case 'ingest':
        return apiIngest(client, out, rest, values.collection);
      case 'research':
      case 'demo':
        await apiResearch(client, out, researchArgs());
        return 0;
      case 'runs':
        await apiListRuns(client, out);
        return 0;
      case 'show':
        await apiShowRun(client, out, rest[0]);
        return 0;
      case 'approve':
        await apiApprove(client, out, rest[0], rest[1], values.reject, values.feedback);
        return 0;
      case 'cancel':
      case 'resume':
        await apiRunAction(client, out, command, rest[0]);
        return 0;
      case 'intervene':
        await apiIntervene(client, out, rest[0], interventionFromFlags(values));
        return 0;
      case 'source-text':
        throw new CliUsageError('source-text reads the database directly; it is not available with --api');
    }
    return 2;
  }
  if (command === 'cancel') throw new CliUsageError('cancel is available through the gateway: dossier --api URL --key KEY cancel RUN');

  let ctx: CliContext | undefined;
  try {
    ctx = await openContext(withWorkers);
    switch (command) {
      case 'ingest': {
        const report = await ingest(ctx, out, rest, values.collection);
        return report.failed.length > 0 && report.ingested + report.updated + report.unchanged + report.duplicates === 0 ? 1 : 0;
      }
      case 'research':
      case 'demo':
        await research(ctx, out, researchArgs());
        return 0;
      case 'resume':
        await resumeRun(ctx, out, rest[0], values.out);
        return 0;
      case 'runs':
        await listRuns(ctx, out);
        return 0;
      case 'show':
        await showRun(ctx, out, rest[0]);
        return 0;
      case 'approve':
        await approve(ctx, out, rest[0], rest[1], values.reject, values.feedback);
        return 0;
      case 'source-text':
        await sourceText(ctx, rest[0]);
        return 0;
    }
    return 2;
  } finally {
    await ctx?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = describeError(err);
    const usage =
      err instanceof CliUsageError ||
      (err instanceof Error && err.name === 'TypeError' && /parseArgs|Unknown option|unexpected argument/i.test(e.message)) ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`dossier: ${e.message}${err instanceof DossierError && err.runId ? ` (run ${err.runId})` : ''}\n`);
    process.exit(usage ? 2 : 1);
  },
);
