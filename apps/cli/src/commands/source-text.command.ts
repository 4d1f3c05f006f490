import { defineCommand } from '../framework/command-spec';

export const sourceTextCommand = defineCommand({
  name: 'source-text',
  description: "Print a source's stored text, by snapshot id or content-hash prefix (report.json sources[].contentHash)",
  arguments: [{ name: 'source', description: 'a snapshot id, or at least 8 characters of its content hash', required: true }],
  async run({ args, client }) {
    const { text } = await (await client()).sourceText(args[0] as string);
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  },
});
