import { defineCommand } from '../framework/command-spec';

export const mcpCommand = defineCommand({
  name: 'mcp',
  description:
    'Serve Dossier to MCP clients (Claude Desktop, IDE agents) over stdio: start_research, get_run, approve_gate, get_report, ' +
    'search_evidence, list_collections, add_document',
  // Its startup and its read-only tools start nothing; the first run it starts brings up the workers (issue 28).
  workers: 'on-demand',
  help: [
    'Runs until its standard input closes. Locally it works the runs it starts in this process; with --api every tool call goes to the gateway.',
    'Claude Desktop (claude_desktop_config.json):',
    '  { "mcpServers": { "dossier": { "command": "npx", "args": ["dossier", "mcp"] } } }',
    '  { "mcpServers": { "dossier": { "command": "npx", "args": ["dossier", "--api", "https://dossier.example", "mcp"],',
    '                                 "env": { "DOSSIER_API_KEY": "dsk_…" } } } }',
  ].join('\n'),
  async run({ client }) {
    // Loaded when the command runs: the MCP SDK and the tools are not needed by any other command (issue 28: --help, runs).
    /* eslint-disable @typescript-eslint/no-require-imports -- lazy loads, see above */
    const { StdioServerTransport } =
      require('@modelcontextprotocol/sdk/server/stdio.js') as typeof import('@modelcontextprotocol/sdk/server/stdio.js');
    const { createDossierMcpServer } = require('@dossier/mcp') as typeof import('@dossier/mcp');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const server = createDossierMcpServer(await client(), { version: '0.1.0' });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await server.connect(transport);
    // The client going away closes our stdin: that ends the session (the transport itself only listens for data).
    process.stdin.once('end', () => void server.close());
    await closed;
  },
});
