import { CliUsageError } from '../cli-error';
import { defineCommand, type CommandSpec } from '../framework/command-spec';

const listDocuments = defineCommand<{ collection: string }>({
  name: 'list',
  description: 'The documents of a collection: path, title, format, size, and the other formats of the same page (aliases)',
  options: [{ flags: '--collection <name>', description: 'the collection', default: 'default' }],
  async run({ opts, out, client }) {
    const docs = await (await client()).documents(opts.collection);
    if (docs === null) throw new CliUsageError(`No collection "${opts.collection}" (dossier ingest creates it)`);
    out.line(`${docs.length} documents in "${opts.collection}"`);
    for (const d of docs) {
      const aliases = d.aliases.length > 0 ? `  (also ${d.aliases.join(', ')})` : '';
      out.line(`  ${d.path}  "${d.title}"  ${d.mediaType}, ${d.chars.toLocaleString('en-US')} chars${aliases}`);
    }
  },
});

const removeDocuments = defineCommand<{ collection: string }>({
  name: 'rm',
  description: 'Remove documents from a collection by path or glob (`api/fs.md`, `changelogs/**`; matches aliases too)',
  arguments: [{ name: 'paths', description: 'collection paths or globs', required: true, variadic: true }],
  options: [{ flags: '--collection <name>', description: 'the collection', default: 'default' }],
  async run({ args, opts, out, client }) {
    const removed = await (await client()).removeDocuments(opts.collection, args[0] as string[]);
    if (removed === null) throw new CliUsageError(`No collection "${opts.collection}"`);
    out.line(`Removed ${removed.length} documents from "${opts.collection}"`);
    for (const p of removed) out.line(`  ${p}`);
    // Nothing matched is worth an exit code: a typo in a path must not look like success in a script.
    return removed.length === 0 ? 1 : 0;
  },
});

export const documentsCommand = defineCommand({
  name: 'documents',
  description: 'List or remove the documents of a collection',
  subcommands: [listDocuments, removeDocuments] as CommandSpec<never>[],
});
