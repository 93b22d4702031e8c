import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fixedClock } from '../../core/clock.js';
import { childEnv } from '../../core/config.js';
import type { Pool } from '../../core/pg-pool.js';
import { silentLogger } from '../../core/logger.js';
import { TEST_NOW, TEST_TZ } from '../../core/testing/test-database.js';
import { parseToolError } from '../../schema/tools/errors.js';
import { startHttpToolServer } from '../http.js';
import type { StaffKey } from '../http-auth.js';
import type { CallMeta } from '../../schema/tools/call-meta.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Connected {
  client: Client;
  label: string;
  close(): Promise<void>;
}

/** A real MCP session with `tsx mcp-server/stdio.ts` as a child process on the test database. */
export async function connectStdio(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'mcp-server', 'stdio.ts')],
    cwd: ROOT,
    env: childEnv({
      DATABASE_URL: databaseUrl,
      FIXED_NOW: TEST_NOW,
      BUSINESS_TIMEZONE: TEST_TZ,
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      ...extraEnv,
    }),
    stderr: 'inherit',
  });
  const client = new Client({ name: 'mcp-server-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, label: 'stdio', close: () => client.close() };
}

/** A staff credential for tests that act as staff over HTTP (the audit actor is `staff:test-staff`). */
export const TEST_STAFF_KEY: StaffKey = { name: 'test-staff', key: 'test-staff-key-0123456789' };

/**
 * A real MCP session over Streamable HTTP to an in-process `startHttpToolServer`, configured with
 * `apiKey` / `staffKeys`; the client presents `bearer` (default: `apiKey`, none without one).
 */
export async function connectHttp(
  pool: Pool,
  opts: {
    apiKey?: string;
    staffKeys?: StaffKey[];
    bearer?: string;
    allowedHosts?: string[];
    allowedOrigins?: string[];
  } = {},
): Promise<Connected & { url: string }> {
  const server = await startHttpToolServer({
    deps: { pool, clock: fixedClock(TEST_NOW), timeZone: TEST_TZ, logger: silentLogger },
    port: 0,
    apiKey: opts.apiKey,
    staffKeys: opts.staffKeys,
    allowedHosts: opts.allowedHosts,
    allowedOrigins: opts.allowedOrigins,
  });
  const bearer = opts.bearer ?? opts.apiKey;
  const client = new Client({ name: 'mcp-server-test', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: bearer ? { headers: { Authorization: `Bearer ${bearer}` } } : undefined,
    }),
  );
  return {
    client,
    label: 'http',
    url: server.url,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export type Outcome =
  | { ok: true; result: Record<string, unknown>; meta?: Record<string, unknown> }
  | { ok: false; code: string; message: string; details: Record<string, unknown> };

/** Call a tool and decode the outcome the way the agent does. */
export async function call(
  client: Client,
  name: string,
  args: unknown,
  meta?: CallMeta | Record<string, unknown>,
): Promise<Outcome> {
  const res = await client.callTool({
    name,
    arguments: args as Record<string, unknown>,
    ...(meta ? { _meta: meta } : {}),
  });
  const text = Array.isArray(res.content) ? res.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '';
  if (res.isError) {
    const err = parseToolError(text);
    return { ok: false, code: err?.code ?? 'unparsed', message: err?.message ?? text, details: err?.details ?? {} };
  }
  return {
    ok: true,
    result: res.structuredContent as Record<string, unknown>,
    meta: res._meta as Record<string, unknown> | undefined,
  };
}

/** Narrow an outcome in a test, with a readable failure. */
export function ok(o: Outcome): Record<string, unknown> {
  if (!o.ok) throw new Error(`expected success, got ${o.code}: ${o.message}`);
  return o.result;
}

export function refused(o: Outcome): Extract<Outcome, { ok: false }> {
  if (o.ok) throw new Error(`expected a refusal, got ${JSON.stringify(o.result).slice(0, 300)}`);
  return o;
}
