import { isAbsolute, relative, resolve } from 'node:path';
import type { DossierClient, IngestChoices, IngestSummary } from '@dossier/client';
import { CliUsageError } from '../cli-error';
import { defineCommand } from '../framework/command-spec';
import type { Output } from '../output';

/** The collection kinds `--kind` takes (the authority classes a source can have; decision 0056). */
const KINDS = ['documentation', 'official', 'academic', 'news', 'forum', 'blog'];

/** Repeatable `--include <glob>` / `--exclude <glob>`: every one given, in order. */
function collect(value: string, previous: unknown): string[] {
  return [...((previous as string[] | undefined) ?? []), value];
}

function kindOption(value: string): string {
  if (!KINDS.includes(value)) throw new CliUsageError(`--kind must be one of ${KINDS.join(', ')}, got "${value}"`);
  return value;
}

/**
 * Ingests files into a collection with a progress line per file, and prints what was stored, what was skipped and
 * what failed, each skipped or failed file with its reason.
 */
export async function ingestInto(
  client: DossierClient,
  out: Output,
  paths: string[],
  collection: string,
  choices: IngestChoices = {},
): Promise<IngestSummary> {
  out.line(`Ingesting ${paths.join(', ')} into collection "${collection}"…`);
  const started = Date.now();
  const report = await client.ingest(
    paths,
    collection,
    (done, total, path) => out.step(`  ${done}/${total} ${path === undefined ? 'files' : shortPath(path, paths)}`),
    choices,
  );
  out.done();
  const secs = (Date.now() - started) / 1000;
  const skipped = report.skippedFiles ?? [];
  out.line(
    `Ingested ${report.ingested} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.duplicates} duplicates, ` +
      `${skipped.length} skipped, ${report.failed.length} failed (${report.scanned} scanned in ${secs.toFixed(1)} s).`,
  );
  if (report.removed) out.line(`Removed ${report.removed} documents stored earlier that are now another page's alias or a bundle.`);
  if (report.kind) out.line(`Collection "${collection}" is ${report.kind}: its documents are cited with that authority.`);
  for (const s of skipped) out.line(`  skipped ${s.path}: ${s.reason}`);
  for (const f of report.failed) out.line(`  failed ${f.path}: ${f.reason}`);
  return report;
}

/** A progress path relative to the one folder named, when there is one: `api/fs.md`, not the whole absolute path. */
function shortPath(path: string, named: string[]): string {
  const [only] = named;
  if (named.length !== 1 || only === undefined) return path;
  const rel = relative(resolve(only), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

export const ingestCommand = defineCommand<{ collection: string; include?: string[]; exclude?: string[]; kind?: string }>({
  name: 'ingest',
  description:
    'Add files to a private collection: md, txt, html, pdf (and .gz of them); folders are walked, a page in several formats ' +
    'is stored once, a whole-manual page beside its parts is skipped; every skipped or failed file is listed with its reason',
  arguments: [{ name: 'paths', description: 'files or folders', required: true, variadic: true }],
  options: [
    { flags: '--collection <name>', description: 'the collection (created on first use)', default: 'default' },
    { flags: '--include <glob>', description: 'only files matching (repeatable; `*.md`, `api/**`)', parse: collect },
    { flags: '--exclude <glob>', description: 'never files matching (repeatable; wins over --include)', parse: collect },
    {
      flags: '--kind <kind>',
      description: `what the collection is, its documents' authority: ${KINDS.join(', ')} (default: detected)`,
      parse: kindOption,
    },
  ],
  help: [
    '',
    'Examples:',
    '  dossier ingest /usr/share/doc/nodejs/api --collection node-docs',
    "  dossier ingest ./handbook --exclude 'drafts/**' --exclude '*.pdf' --kind documentation",
  ].join('\n'),
  async run({ args, opts, out, client }) {
    const report = await ingestInto(await client(), out, args[0] as string[], opts.collection, {
      include: opts.include,
      exclude: opts.exclude,
      kind: opts.kind,
    });
    // Nothing readable at all is a failure; some bad files among good ones are not.
    return report.failed.length > 0 && report.ingested + report.updated + report.unchanged + report.duplicates === 0 ? 1 : 0;
  },
});
