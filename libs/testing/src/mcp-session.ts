import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { HANG_GUARD_MS } from './hang-guard';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool's answer as tests read it: its text, its JSON when the text is JSON, and whether it is a tool error. */
export interface ToolAnswer {
  isError: boolean;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the fields they assert on
  json: any;
  /** The progress notifications received while the call ran. */
  progress: { progress: number; message?: string | undefined }[];
}

/**
 * Calls a tool through a real SDK client, collecting its progress notifications. Long calls reset the client's
 * request timeout on each notification (a run that reports nothing for 10 minutes is stuck).
 */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const progress: ToolAnswer['progress'] = [];
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => progress.push({ progress: p.progress, message: p.message }),
    timeout: 10 * 60_000,
    resetTimeoutOnProgress: true,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, text, json, progress };
}

/**
 * An SDK client connected over `transport` (stdio to `dossier mcp`, or Streamable HTTP to the gateway's `/mcp`).
 * `initialize` waits up to the hang guard, not the SDK's 60 s: `dossier mcp` answers it only once its process has
 * compiled and booted, which took over a minute on a loaded two-core machine (a wait, not a retry).
 */
export async function connectMcp(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'dossier-test', version: '1.0.0' });
  await client.connect(transport, { timeout: HANG_GUARD_MS });
  return client;
}
