import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The layer boundaries are lint errors (docs/decisions/0031): each fixture under a project's `lint-fixtures/`
 * breaks one and must fail with the module-boundary rule's message for it. The fixtures are ignored by every
 * ordinary lint and outside every tsconfig; tools/lint/lint-files.mjs lints them with the real config.
 */
const root = path.resolve(__dirname, '../../..');

interface Problem {
  file: string;
  line: number;
  ruleId: string | null;
  message: string;
}

const onlyTags = (layer: string, allowed: string[]) =>
  `A project tagged with "layer:${layer}" can only depend on libs tagged with ${allowed.map((t) => `"layer:${t}"`).join(', ')}`;
const CAPABILITY = onlyTags('capability', ['contracts', 'util', 'data', 'capability']);
const ENGINE = onlyTags('engine', ['contracts', 'util', 'data', 'transport']);
const AGENT = onlyTags('agent', ['contracts', 'util', 'capability']);
const PRESENTATION = onlyTags('presentation', ['contracts', 'util']);

const PRISMA_CALL = 'Call Prisma models in libs/db (a repository, view or table file) and call that here: issue 26, decision 0093.';
const PROCESS_ENV = 'Read configuration through @dossier/config (a typed schema, or environment()): issue 26, decision 0080.';

/** An error of `rule` (default: the module-boundary rule) at `line`. */
interface Expected {
  line: number;
  message: string | RegExp;
  rule?: string;
}

const CASES: { boundary: string; file: string; errors: Expected[] }[] = [
  {
    boundary: 'contracts import nothing of ours',
    file: 'libs/contracts/lint-fixtures/contracts-import-ours.ts',
    errors: [{ line: 2, message: 'A project tagged with "layer:contracts" cannot depend on any libs with tags' }],
  },
  {
    boundary: 'the engine knows no stage, agent or source',
    file: 'libs/workflow/lint-fixtures/engine-imports-capabilities.ts',
    errors: [
      { line: 2, message: ENGINE },
      { line: 3, message: ENGINE },
      // Every stage depends on the engine, so Nx names the engine importing one a cycle (it checks cycles before tags).
      { line: 4, message: /^Circular dependency between "@dossier\/workflow" and "@dossier\/stage-planner"/ },
    ],
  },
  {
    boundary: 'agents know no pipeline (queue, workflow)',
    file: 'libs/agents/lint-fixtures/agents-import-pipeline.ts',
    errors: [
      { line: 2, message: AGENT },
      { line: 3, message: AGENT },
    ],
  },
  {
    boundary: 'agents know no database: their persistence is ports (docs/decisions/0034)',
    file: 'libs/agents/lint-fixtures/agents-import-db.ts',
    errors: [{ line: 2, message: AGENT }],
  },
  {
    boundary: 'sources know no pipeline',
    file: 'libs/sources/lint-fixtures/sources-import-pipeline.ts',
    errors: [{ line: 2, message: CAPABILITY }],
  },
  {
    boundary: 'vectors know no pipeline',
    file: 'libs/vectors/lint-fixtures/vectors-import-pipeline.ts',
    errors: [{ line: 2, message: CAPABILITY }],
  },
  {
    boundary: 'libraries never import apps',
    file: 'libs/render/lint-fixtures/library-imports-app.ts',
    errors: [{ line: 2, message: PRESENTATION }],
  },
  {
    boundary: 'render reads what it is given, never the database (issue 26)',
    file: 'libs/render/lint-fixtures/render-imports-data.ts',
    errors: [{ line: 2, message: PRESENTATION }],
  },
  {
    boundary: 'no library imports libs/testing outside tests',
    file: 'libs/db/lint-fixtures/library-imports-testing.ts',
    errors: [{ line: 2, message: onlyTags('data', ['contracts', 'util']) }],
  },
  {
    boundary: 'stages never import each other',
    file: 'libs/stages/writer/lint-fixtures/stage-imports-stage.ts',
    errors: [
      {
        line: 2,
        message: onlyTags('stage', ['contracts', 'util', 'data', 'transport', 'engine', 'capability', 'agent', 'adapter', 'presentation']),
      },
    ],
  },
  {
    boundary: 'a test may import libs/testing (the same import as above, in a test folder)',
    file: 'libs/db/lint-fixtures/test/test-imports-testing.ts',
    errors: [],
  },
  {
    boundary: 'process.env is read only in libs/config, entry points, tracing setup, the harness and tests (decision 0080)',
    file: 'libs/sources/lint-fixtures/library-reads-process-env.ts',
    errors: [
      { line: 2, message: `'process.env' is restricted from being used. ${PROCESS_ENV}`, rule: 'no-restricted-properties' },
      { line: 3, message: `'process.env' is restricted from being used. ${PROCESS_ENV}`, rule: 'no-restricted-properties' },
    ],
  },
  {
    boundary: 'libs/config reads process.env (the same read as above, in libs/config)',
    file: 'libs/config/lint-fixtures/config-reads-process-env.ts',
    errors: [],
  },
  {
    boundary: 'Prisma models are called only in libs/db (decision 0093)',
    file: 'libs/runs/lint-fixtures/application-calls-prisma-model.ts',
    errors: [
      { line: 4, message: PRISMA_CALL, rule: 'no-restricted-syntax' },
      { line: 5, message: PRISMA_CALL, rule: 'no-restricted-syntax' },
    ],
  },
  {
    boundary: 'libs/db calls Prisma models (the same call as above, in libs/db)',
    file: 'libs/db/lint-fixtures/db-calls-prisma-model.ts',
    errors: [],
  },
];

describe('layer boundaries, the process.env rule and the Prisma-call rule are lint errors', () => {
  let problems: Problem[];
  let ignored: string[];
  let layers: string[];

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['tools/lint/lint-files.mjs', ...CASES.map((c) => c.file)], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
    ({ problems, ignored, layers } = JSON.parse(stdout) as { problems: Problem[]; ignored: string[]; layers: string[] });
  });

  it.each(CASES)('$boundary: $file', ({ file, errors }) => {
    const found = problems.filter((p) => p.file === file);
    expect(found.map((p) => p.ruleId)).toEqual(errors.map((e) => e.rule ?? '@nx/enforce-module-boundaries'));
    expect(found.map((p) => p.line)).toEqual(errors.map((e) => e.line));
    errors.forEach((e, i) => expect(found[i]!.message).toMatch(typeof e.message === 'string' ? exact(e.message) : e.message));
  });

  it('every project has exactly one layer tag of the table (a project the table does not know imports nothing)', () => {
    const workspaces = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    const projects = workspaces.flatMap((w) => {
      const parent = path.join(root, w.replace(/\/\*$/, ''));
      return readdirSync(parent, { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== 'stages')
        .map((d) => path.join(parent, d.name, 'package.json'));
    });
    expect(projects.length).toBeGreaterThan(20);
    for (const file of projects) {
      const tags = (JSON.parse(readFileSync(file, 'utf8')) as { nx?: { tags?: string[] } }).nx?.tags ?? [];
      expect({ file: path.relative(root, file), tags }).toEqual({
        file: path.relative(root, file),
        tags: [expect.stringMatching(/^layer:/)],
      });
      expect(layers).toContain(tags[0]!.slice('layer:'.length));
    }
  });

  it('ordinary lint runs ignore every fixture', () => {
    expect(ignored.sort()).toEqual(CASES.map((c) => c.file).sort());
  });
});

function exact(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
