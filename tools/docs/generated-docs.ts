import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_GROUPS, variableRows } from '../../libs/config/src';
import { mermaidDiagram, nodeTableMarkdown, WORKFLOWS } from '../../libs/workflow/src';

export const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * The parts of the docs written from the code, so they cannot drift from it: each is the text between
 * `<!-- BEGIN GENERATED: name -->` and `<!-- END GENERATED: name -->` in its file. `npm run docs` rewrites them;
 * tools/docs/test fails when the committed text differs.
 */
export function generatedBlocks(): Record<string, Record<string, string>> {
  const current = WORKFLOWS.get(WORKFLOWS.current);
  const diagrams = WORKFLOWS.versions
    .map(
      (v) => `Version ${v}${v === WORKFLOWS.current ? ' (new runs)' : ''}:\n\n\`\`\`mermaid\n${mermaidDiagram(WORKFLOWS.get(v))}\n\`\`\``,
    )
    .join('\n\n');
  return {
    'docs/architecture.md': {
      nodes: nodeTableMarkdown(current),
      diagrams,
    },
    'docs/operations.md': {
      variables: variableTableMarkdown(),
    },
  };
}

/** Variable names in a description, in backticks: `<ROLE>` would otherwise be read as an HTML tag. */
const codeNames = (text: string) => text.replace(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:<ROLE>)?/g, (name) => `\`${name}\``);
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** docs/operations.md's variable table: one table per group of libs/config's catalog, in its order. */
export function variableTableMarkdown(): string {
  const rows = variableRows();
  return CONFIG_GROUPS.map((group) => {
    const lines = rows
      .filter((r) => r.group === group.id)
      .map((r) => `| \`${r.name}\` | ${r.default === '' ? '–' : cell(r.default)} | ${cell(codeNames(r.description))} |`);
    return [`Read by ${group.title}:`, '', '| variable | default | meaning |', '| --- | --- | --- |', ...lines].join('\n');
  }).join('\n\n');
}

const marker = (kind: 'BEGIN' | 'END', name: string) => `<!-- ${kind} GENERATED: ${name} (npm run docs) -->`;

/** `text` with each named block replaced by its generated content; a block missing from the text is an error. */
export function applyBlocks(file: string, text: string, blocks: Record<string, string>): string {
  let out = text;
  for (const [name, content] of Object.entries(blocks)) {
    const begin = out.indexOf(marker('BEGIN', name));
    const end = out.indexOf(marker('END', name));
    if (begin < 0 || end < begin)
      throw new Error(`${file} has no generated block "${name}" (${marker('BEGIN', name)} … ${marker('END', name)})`);
    out = `${out.slice(0, begin + marker('BEGIN', name).length)}\n\n${content}\n\n${out.slice(end)}`;
  }
  return out;
}

/**
 * Each file with generated blocks: what is committed, and what it should be — formatted by Prettier with the
 * repository's settings, so `npm run docs` and `prettier --check` agree.
 */
export function docsState(): { file: string; committed: string; generated: string }[] {
  return Object.entries(generatedBlocks()).map(([file, blocks]) => {
    const absolute = path.join(REPO_ROOT, file);
    const committed = readFileSync(absolute, 'utf8');
    // Prettier's own CLI in a child process: its API loads plugins by dynamic import, which jest's runtime refuses.
    const generated = execFileSync(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--stdin-filepath', absolute],
      {
        input: applyBlocks(file, committed, blocks),
        encoding: 'utf8',
      },
    );
    return { file, committed, generated };
  });
}
