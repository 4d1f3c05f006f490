import { ReportFormat, type RunOptionsInput } from '@dossier/contracts';
import type { OptionSpec } from '../framework/command-spec';
import { choiceList, collect, nameList, oneOf, positiveInt, positiveNumber } from '../framework/option-parsers';

/** The research flags, as `research` and `demo` read them (both transports send the same run options). */
export interface ResearchFlags {
  corpus?: string[];
  collection: string;
  out: string;
  format: ReportFormat[];
  engine: 'offline' | 'openai';
  search: string[];
  perspectives?: number;
  mode: 'survey' | 'interviews' | 'hybrid';
  interviewTurns?: number;
  maxIterations?: number;
  approve: 'auto' | 'prompt';
  budgetTokens?: number;
  budgetCost?: number;
  budgetTime?: number;
  freshSearch?: boolean;
}

export const OUT_FLAG: OptionSpec = {
  flags: '--out <dir>',
  description: 'where the report files go',
  default: 'out',
};

export const FORMAT_FLAG: OptionSpec = {
  flags: '--format <list>',
  description: `report files to write, comma-separated: ${ReportFormat.options.join(', ')}`,
  parse: choiceList('format', ReportFormat.options),
  default: [...ReportFormat.options],
};

export const RESEARCH_FLAGS: OptionSpec[] = [
  { flags: '--corpus <path>', description: 'ingest this file or folder into the collection first (repeatable)', parse: collect },
  { flags: '--collection <name>', description: 'the private collection to search', default: 'default' },
  OUT_FLAG,
  FORMAT_FLAG,
  {
    flags: '--engine <name>',
    description: 'offline (no model, extractive) or openai (any OpenAI-compatible endpoint: OPENAI_BASE_URL, OPENAI_MODEL)',
    parse: oneOf('engine', ['offline', 'openai']),
    default: 'offline',
  },
  {
    flags: '--search <providers>',
    description: 'search providers, comma-separated: corpus, searxng, tavily, brave',
    parse: nameList('search', 'searxng,corpus'),
    default: ['corpus'],
  },
  {
    flags: '--perspectives <n>',
    description: 'analysts who plan the research (and, in interviews mode, interview the expert)',
    parse: positiveInt('perspectives'),
  },
  {
    flags: '--mode <mode>',
    description:
      'survey (question-graph research loop), interviews (each analyst interviews an expert, in parallel) or hybrid (survey, then interviews on what it left open)',
    parse: oneOf('mode', ['survey', 'interviews', 'hybrid']),
    default: 'survey',
  },
  { flags: '--interview-turns <n>', description: 'questions each analyst asks at most (default 3)', parse: positiveInt('interview-turns') },
  {
    flags: '--max-iterations <n>',
    description: 'research loop passes at most (the iterations budget)',
    parse: positiveInt('max-iterations'),
  },
  {
    flags: '--approve <mode>',
    description: 'auto, or prompt: stop at the plan, outline and publish gates and ask',
    parse: oneOf('approve', ['auto', 'prompt']),
    default: 'auto',
  },
  { flags: '--budget-tokens <n>', description: 'model tokens at most', parse: positiveInt('budget-tokens') },
  { flags: '--budget-cost <usd>', description: 'model spend at most, in USD', parse: positiveNumber('budget-cost') },
  { flags: '--budget-time <seconds>', description: 'wall time at most', parse: positiveNumber('budget-time') },
  {
    flags: '--fresh-search',
    description: "ask the web search providers again instead of reusing the tenant's cached answers (for freshness-critical questions)",
  },
];

/** The run options the flags ask for. */
export function runOptionsFor(f: ResearchFlags): RunOptionsInput {
  const gate = f.approve === 'prompt' ? 'required' : 'auto';
  const budgets = {
    ...(f.budgetTokens ? { tokens: f.budgetTokens } : {}),
    ...(f.budgetCost ? { costUsd: f.budgetCost } : {}),
    ...(f.budgetTime ? { wallTimeMs: Math.round(f.budgetTime * 1000) } : {}),
  };
  return {
    engine: f.engine,
    searchProviders: f.search,
    ...(f.search.includes('corpus') ? { collection: f.collection } : {}),
    gates: { plan: gate, outline: gate, publish: gate },
    ...(f.perspectives ? { perspectives: f.perspectives } : {}),
    mode: f.mode,
    ...(f.interviewTurns ? { interviewTurns: f.interviewTurns } : {}),
    ...(f.maxIterations ? { maxIterations: f.maxIterations } : {}),
    ...(Object.keys(budgets).length > 0 ? { budgets } : {}),
    ...(f.freshSearch ? { freshSearch: true } : {}),
  };
}
