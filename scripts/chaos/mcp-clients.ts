import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { baseEnv, ROOT } from './workers.js';

export interface ToolOutcome {
  /** false: the transport itself failed (no answer), which counts against the server. */
  answered: boolean;
  isError: boolean;
  code?: string;
  text: string;
}

export interface McpConnection {
  client: Client;
  closed: () => boolean;
  close(): Promise<void>;
  call(name: string, args: unknown, meta?: Record<string, unknown>): Promise<ToolOutcome>;
}

function wrap(client: Client, onClose: () => boolean): McpConnection {
  return {
    client,
    closed: onClose,
    close: () => client.close().catch(() => undefined),
    async call(name, args, meta) {
      try {
        const res = await client.callTool(
          { name, arguments: args as Record<string, unknown>, ...(meta ? { _meta: meta } : {}) },
          undefined,
          { timeout: 30_000 },
        );
        const text = Array.isArray(res.content)
          ? res.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
          : '';
        let code: string | undefined;
        if (res.isError) {
          try {
            code = JSON.parse(text)?.error?.code;
          } catch {
            code = 'unparsed';
          }
        }
        return { answered: true, isError: Boolean(res.isError), code, text };
      } catch (err) {
        const e = err as { code?: number; message?: string };
        // A JSON-RPC error (unknown tool, invalid params) is an answer; a closed connection (-32000),
        // a timeout (-32001) or a failed HTTP exchange is not.
        const rpc = typeof e.code === 'number' && e.code !== -32000 && e.code !== -32001;
        return {
          answered: rpc,
          isError: true,
          code: rpc ? `rpc:${e.code}` : 'transport',
          text: String(e.message ?? err),
        };
      }
    },
  };
}

export async function connectHttp(url: string, token?: string): Promise<McpConnection> {
  const client = new Client({ name: 'chaos', version: '0.0.0' });
  let closed = false;
  client.onclose = () => (closed = true);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
    }),
  );
  return wrap(client, () => closed);
}

/** The stdio tool server as a worker runs it: a child process on the given database. */
export async function connectStdio(
  env: Record<string, string>,
  stderrFile: number,
): Promise<McpConnection & { pid?: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'mcp-server', 'stdio.ts')],
    cwd: ROOT,
    env: baseEnv(env),
    stderr: stderrFile,
  });
  const client = new Client({ name: 'chaos', version: '0.0.0' });
  let closed = false;
  client.onclose = () => (closed = true);
  await client.connect(transport);
  return { ...wrap(client, () => closed), pid: transport.pid ?? undefined };
}
