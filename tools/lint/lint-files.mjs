// Lints the given files with the repository's ESLint config through ESLint's Node API, ignores included
// (the boundary fixtures are ignored by every ordinary lint), and prints each problem as one JSON array.
// A separate process because Jest's CommonJS sandbox cannot import the ESM config. docs/decisions/0031.
import { createProjectGraphAsync } from '@nx/devkit';
import { ESLint } from 'eslint';
import path from 'node:path';
import { LAYERS } from '../../eslint.config.mjs';

const root = path.resolve(import.meta.dirname, '../..');
process.env.NX_DAEMON = 'false';
// @nx/enforce-module-boundaries reads the cached project graph: make it current first.
await createProjectGraphAsync({ exitOnError: true });

const eslint = new ESLint({ cwd: root, ignore: false });
const ordinary = new ESLint({ cwd: root });
const files = process.argv.slice(2);
const results = await eslint.lintFiles(files);
const problems = results.flatMap((r) =>
  r.messages.map((m) => ({ file: path.relative(root, r.filePath), line: m.line, ruleId: m.ruleId, message: m.message })),
);
const ignored = [];
for (const f of files) if (await ordinary.isPathIgnored(f)) ignored.push(path.relative(root, path.resolve(root, f)));
process.stdout.write(JSON.stringify({ problems, ignored, layers: Object.keys(LAYERS) }));
