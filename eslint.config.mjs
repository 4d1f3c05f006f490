// Root ESLint flat config (ESLint 10, typescript-eslint 8, @nx/eslint-plugin 23).
// Projects get an inferred `lint` target from @nx/eslint/plugin (nx.json); no per-project config is needed.
// Run lint through Nx: @nx/enforce-module-boundaries reads Nx's cached project graph.
import nx from '@nx/eslint-plugin';
import { readFileSync } from 'node:fs';

const SOURCE_FILES = ['**/*.ts', '**/*.tsx', '**/*.cts', '**/*.mts', '**/*.js', '**/*.jsx'];
const LINT_FIXTURES = '**/lint-fixtures/**';
const TEST_FILES = ['**/*.spec.ts', '**/test/**/*.ts', '**/test/**/*.tsx'];

/**
 * Where `process.env` may be read (issue 26, docs/decisions/0080): libs/config declares every variable and hands out
 * `environment()`; app entry points and tracing setup run before any library; the secret redaction (libs/errors,
 * below libs/config) collects configured secrets; the test harness, tools and tests steer processes they start.
 * Everything else receives typed config or reads `environment()`.
 */
export const PROCESS_ENV_ALLOWED = [
  'libs/config/**',
  'apps/*/src/main.ts',
  'apps/*/src/tracing.ts',
  'libs/errors/src/redact.ts',
  'libs/testing/**',
  'tools/**',
  'prisma.config.ts',
  ...TEST_FILES,
];

/**
 * Direct Prisma model calls (`db.claim.findMany(…)`, `tx.outlineSection.createMany(…)`) belong in libs/db's
 * repositories, views and table files (issue 26, decision 0093); everything else calls those, passing its transaction
 * when it has one. The models are read from the schema, so a new model is covered without editing this list. Tests and
 * the harness seed and inspect tables directly. Raw SQL (`$queryRaw`) is not a model call and not covered.
 */
export const PRISMA_MODELS = [...readFileSync(new URL('./prisma/schema.prisma', import.meta.url), 'utf8').matchAll(/^model (\w+)/gm)].map(
  ([, name]) => name[0].toLowerCase() + name.slice(1),
);
const PRISMA_OPERATIONS = [
  'findMany',
  'findFirst',
  'findFirstOrThrow',
  'findUnique',
  'findUniqueOrThrow',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
  'count',
  'aggregate',
  'groupBy',
];
export const PRISMA_CALLS_ALLOWED = ['libs/db/**', 'libs/testing/**', ...TEST_FILES];
const PRISMA_MODEL_CALL =
  `CallExpression[callee.type='MemberExpression'][callee.property.name=/^(${PRISMA_OPERATIONS.join('|')})$/]` +
  `[callee.object.type='MemberExpression'][callee.object.property.name=/^(${PRISMA_MODELS.join('|')})$/]`;

/**
 * The layers (tag `layer:*` in each package.json's `nx.tags`) and what each may import; docs/decisions/0031.
 * A layer absent from a list is a lint error: contracts import nothing of ours; the engine knows no stage,
 * agent or source; capabilities know no pipeline (engine, transport, stages); agents know no database either
 * (their persistence is ports, implemented by an adapter: docs/decisions/0034); stages never import each
 * other; nothing imports an app (Nx forbids that for any tag). libs/testing is added for test files only.
 */
export const LAYERS = {
  contracts: [],
  util: ['contracts', 'util'],
  data: ['contracts', 'util'],
  transport: ['contracts', 'util'],
  engine: ['contracts', 'util', 'data', 'transport'],
  // The run application (libs/runs): commands, queries, gate edits and archives over the engine; what apps call.
  // It renders an imported run's report again under the run's own id (libs/render is pure: contracts and util).
  application: ['contracts', 'util', 'data', 'transport', 'engine', 'presentation'],
  capability: ['contracts', 'util', 'data', 'capability'],
  // libs/render: a report (contracts' ReportJson) to HTML, Markdown and PDF. It reads what it is given, never the
  // database (issue 26): rendering a stored or an imported report is the same call.
  presentation: ['contracts', 'util'],
  // The agent roles and engines: pure, their persistence behind ports (llm_calls, research_runs, the budget lock).
  agent: ['contracts', 'util', 'capability'],
  // A capability's ports over our data (PrismaAgentStore): the only place agents meet the database.
  adapter: ['contracts', 'util', 'data', 'capability', 'agent'],
  // Every other library's tests import libs/testing: anything more here would be a cycle.
  testing: ['contracts', 'util'],
  // Evaluation drives the pipeline's roles over sources and renders what they wrote.
  eval: ['contracts', 'util', 'data', 'transport', 'engine', 'capability', 'agent', 'presentation'],
  stage: ['contracts', 'util', 'data', 'transport', 'engine', 'capability', 'agent', 'adapter', 'presentation'],
  // What a CLI command or an MCP tool asks of Dossier (DossierClient over /v1; the MCP tools over it): the API's
  // contracts only, never the engine or its implementation's data or capabilities.
  client: ['contracts', 'util', 'client'],
  app: [
    'contracts',
    'util',
    'data',
    'transport',
    'engine',
    'application',
    'capability',
    'agent',
    'adapter',
    'presentation',
    'stage',
    'eval',
    'client',
  ],
};

/** What a layer's tests may import beyond its own list and libs/testing: the engine's tests drive runs through the run application. */
const TEST_EXTRAS = { engine: ['application'] };

function withTesting(layers) {
  return Object.fromEntries(Object.entries(layers).map(([layer, deps]) => [layer, [...deps, ...(TEST_EXTRAS[layer] ?? []), 'testing']]));
}

function boundaries(layers) {
  return {
    enforceBuildableLibDependency: false,
    banTransitiveDependencies: false,
    allow: [],
    // The engine's integration tests (libs/workflow/test) start and steer runs through the run application, as the
    // gateway and the CLI do, which makes a project-graph edge workflow → runs from tests alone. The engine's own
    // source cannot import it: the `engine` layer does not list `application`, so this hides no source cycle.
    ignoredCircularDependencies: [['@dossier/workflow', '@dossier/runs']],
    // Our libs may be required lazily (the CLI loads a command's libraries when it runs, decision 0078) and imported
    // statically elsewhere: the rule guards bundle splitting, and nothing here is bundled (sources run as they are).
    checkDynamicDependenciesExceptions: ['@dossier/*'],
    // No '*' constraint: an untagged project may depend on nothing.
    depConstraints: Object.entries(layers).map(([layer, deps]) => ({
      sourceTag: `layer:${layer}`,
      onlyDependOnLibsWithTags: deps.map((d) => `layer:${d}`),
    })),
  };
}

export default [
  {
    ignores: ['**/generated/**', '**/node_modules/**', '**/dist/**', '**/tmp/**', '**/out/**', '**/coverage/**', '**/*.cjs', '**/*.mjs'],
  },
  // Files that break a boundary on purpose: linted only by tools/lint/test (ESLint's `ignore: false`).
  { ignores: [LINT_FIXTURES] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    files: SOURCE_FILES,
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(LAYERS)] },
  },
  {
    files: SOURCE_FILES,
    ignores: PROCESS_ENV_ALLOWED,
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through @dossier/config (a typed schema, or environment()): issue 26, decision 0080.',
        },
      ],
    },
  },
  {
    files: SOURCE_FILES,
    ignores: PRISMA_CALLS_ALLOWED,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: PRISMA_MODEL_CALL,
          message: 'Call Prisma models in libs/db (a repository, view or table file) and call that here: issue 26, decision 0093.',
        },
      ],
    },
  },
  {
    // Tests (and only tests) may use libs/testing: the real Postgres databases, fake model and search servers.
    files: TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(withTesting(LAYERS))] },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: {
          // Root-level TS files that belong to no project tsconfig (only hit by a plain `eslint .` at the root).
          allowDefaultProject: ['prisma.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // The fixtures are outside every tsconfig (no build, no typecheck): parse them without types.
    files: [`${LINT_FIXTURES}/*.ts`],
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'off',
    },
  },
];
