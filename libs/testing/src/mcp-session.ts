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
 * The progress notifications each client's transport delivered, in arrival order, before the SDK handles them. The
 * SDK (1.32) runs a notification's handler a microtask later but drops the request's progress handler as soon as the
 * response is read: when the last notification and the response arrive in one read (a busy client), the SDK loses
 * that notification. Tests assert what the server sent, so they read the wire.
 */
const wire = new WeakMap<Client, { progressToken: unknown; progress: number; message?: string | undefined }[]>();

/**
 * Calls a tool through a real SDK client, collecting its progress notifications. Long calls reset the client's
 * request timeout on each notification (a run that reports nothing for 10 minutes is stuck). One call at a time per
 * client: the notifications are those delivered while the call ran.
 */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const log = wire.get(client);
  if (!log) throw new Error('callTool needs a client from connectMcp');
  const from = log.length;
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    // Asks the server for progress (the SDK sends a progress token only with a handler); read from the wire below.
    onprogress: () => undefined,
    timeout: 10 * 60_000,
    resetTimeoutOnProgress: true,
  })) as CallToolResult;
  const received = log.slice(from);
  if (new Set(received.map((n) => n.progressToken)).size > 1) throw new Error(`callTool(${name}): another call ran on this client`);
  const progress = received.map((n) => ({ progress: n.progress, message: n.message }));
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
  const log: { progressToken: unknown; progress: number; message?: string | undefined }[] = [];
  wire.set(client, log);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress' && message.params) {
      const { progressToken, progress, message: text } = message.params as { progressToken: unknown; progress: number; message?: string };
      log.push({ progressToken, progress, message: text });
    }
    deliver?.(message, extra);
  };
  return client;
}
