#!/usr/bin/env node
// Renders kustomizations and validates every object: `node tools/deploy/k8s-check.mjs [--json] DIR...`.
// Exit 1 if any directory fails to render or any object fails its schema. --json prints
// { "<dir>": { "objects": [...], "errors": [...] } } for tests.
import { build } from './kustomize.mjs';
import { validate } from './validate.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const dirs = args.filter((a) => a !== '--json');
const report = {};
let failed = false;
for (const dir of dirs) {
  let objects = [];
  const errors = [];
  try {
    objects = build(dir);
    errors.push(...(await validate(objects)));
  } catch (err) {
    errors.push(err.message);
  }
  if (errors.length > 0) failed = true;
  report[dir] = { objects, errors };
}
if (json) {
  process.stdout.write(JSON.stringify(report));
} else {
  for (const [dir, r] of Object.entries(report)) {
    console.log(`${dir}: ${r.objects.length} objects, ${r.errors.length === 0 ? 'all valid' : `${r.errors.length} error(s)`}`);
    for (const e of r.errors) console.log(`  ✗ ${e}`);
  }
}
// exitCode, not exit(): exit() would cut a large --json answer short when stdout is a pipe (64 KiB at a time).
process.exitCode = failed ? 1 : 0;
