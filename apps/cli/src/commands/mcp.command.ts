import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createDossierMcpServer } from '@dossier/mcp';
import { defineCommand } from '../framework/command-spec';

export const mcpCommand = defineCommand({
  name: 'mcp',
  description:
    'Serve Dossier to MCP clients (Claude Desktop, IDE agents) over stdio: start_research, get_run, approve_gate, get_report, ' +
    'search_evidence, list_collections, add_document',
  workers: true,
  help: [
    'Runs until its standard input closes. Locally it works runs in this process; with --api every tool call goes to the gateway.',
    'Claude Desktop (claude_desktop_config.json):',
    '  { "mcpServers": { "dossier": { "command": "npx", "args": ["dossier", "mcp"] } } }',
    '  { "mcpServers": { "dossier": { "command": "npx", "args": ["dossier", "--api", "https://dossier.example", "mcp"],',
    '                                 "env": { "DOSSIER_API_KEY": "dsk_…" } } } }',
  ].join('\n'),
  async run({ client }) {
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
