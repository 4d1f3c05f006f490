import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { GatewayHttp, HttpClient } from '@dossier/client';
import { createDossierMcpServer } from '@dossier/mcp';
import { ApiKeyGuard, presentedKey, WritesCheckedDownstream } from '../auth/api-key.guard';
import type { AuthedRequest } from '../auth/identity';
import { MethodNotAllowedError } from '../common/http-errors';

/**
 * MCP over Streamable HTTP at `/mcp` (decision 0029), stateless: every POST is one JSON-RPC exchange with a
 * fresh server, answered as JSON or, when a tool reports progress, as an SSE stream. The key is checked by the
 * same guard as `/v1` (tenant policy, rate limit), and the tools run over an `HttpClient` that calls this
 * gateway's own `/v1` with the caller's key: a tool can do exactly what that key can do over `/v1`, each of its
 * requests counted by the same rate limit, and nothing else — a viewer key reads through the tools, and its writes
 * are refused by `/v1` (403) and reported as tool errors.
 */
@Controller('mcp')
@UseGuards(ApiKeyGuard)
export class McpController {
  @Post()
  @WritesCheckedDownstream()
  async post(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: unknown): Promise<void> {
    const server = createDossierMcpServer(new HttpClient(new GatewayHttp(selfUrl(req), presentedKey(req as AuthedRequest) ?? '')), {
      version: '0.1.0',
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, reply.raw, body);
  }

  /** Stateless: no standalone notification stream to open (GET) and no session to end (DELETE). */
  @Get()
  @HttpCode(405)
  get(@Res({ passthrough: true }) reply: FastifyReply): never {
    return refuse(reply);
  }

  @Delete()
  @HttpCode(405)
  delete(@Res({ passthrough: true }) reply: FastifyReply): never {
    return refuse(reply);
  }
}

function refuse(reply: FastifyReply): never {
  void reply.header('allow', 'POST');
  throw new MethodNotAllowedError('MCP here is stateless Streamable HTTP: POST JSON-RPC messages to /mcp');
}

/** This gateway as the request reached it, for the tools' `/v1` calls (the loopback of the same listener). */
function selfUrl(req: FastifyRequest): string {
  const { localAddress, localPort } = req.raw.socket;
  const host = !localAddress || localAddress === '::' || localAddress === '0.0.0.0' ? '127.0.0.1' : localAddress.replace(/^::ffff:/, '');
  return `http://${host.includes(':') ? `[${host}]` : host}:${localPort}`;
}
