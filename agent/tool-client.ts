import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { parseToolError } from '../mcp-server/errors.js';
import type { CallMeta } from '../mcp-server/meta.js';

export type ToolCallOutcome =
  | { ok: true; result: Record<string, unknown>; replay?: boolean }
  | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };

/**
 * The agent's only door to the business: an MCP client session. Which transport is a deployment
 * choice (a stdio child per worker, or one shared Streamable HTTP service); the agent can't tell.
 */
export class ToolClient {
  private tools?: Tool[];
  private constructor(private readonly client: Client) {}

  static async connect(transport: Transport): Promise<ToolClient> {
    const client = new Client({ name: 'support-agent', version: '0.1.0' });
    await client.connect(transport);
    return new ToolClient(client);
  }

  async listTools(): Promise<Tool[]> {
    this.tools ??= (await this.client.listTools()).tools;
    return this.tools;
  }

  async call(name: string, args: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome> {
    const res = await this.client.callTool({ name, arguments: args, _meta: meta });
    const text = Array.isArray(res.content) ? res.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '';
    if (res.isError) {
      return { ok: false, error: parseToolError(text) ?? { code: 'internal', message: text || 'tool failed' } };
    }
    const result = (res.structuredContent as Record<string, unknown> | undefined) ?? JSON.parse(text || '{}');
    return { ok: true, result, replay: (res._meta as { replay?: boolean } | undefined)?.replay };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The tool server as a child process over stdio, sharing our database. */
export function stdioTransport(env: Record<string, string>): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'mcp-server', 'stdio.ts')],
    env,
    cwd: ROOT,
    stderr: 'inherit',
  });
}

export function httpTransport(url: string, apiKey?: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: apiKey ? { headers: { Authorization: `Bearer ${apiKey}` } } : undefined,
  });
}
