import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { docsState, REPO_ROOT } from './generated-docs';

// `npm run docs`: rewrites the generated blocks of the docs from the code (node table, workflow diagrams).
for (const { file, committed, generated } of docsState()) {
  if (generated === committed) continue;
  writeFileSync(path.join(REPO_ROOT, file), generated);
  process.stdout.write(`updated ${file}\n`);
}
