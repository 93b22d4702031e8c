import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { storableJson } from '../core/storable-text.js';
import type { ToolContext, ToolDefinition } from './tool-handler.js';
import { ToolError } from '../schema/tools/errors.js';
import { dryRunWrite, runGatedWrite } from './gate.js';
import { callerLabel, LOCAL_CALLER, scopeFor, type Caller } from './caller.js';
import { CallMetaSchema } from '../schema/tools/call-meta.js';
import { SERVED_TOOLS } from './registry.js';
import { MUTATING_TOOLS } from '../schema/tools/catalog.js';
import { BUSINESS } from '../schema/business/profile.js';

export interface ToolServerDeps {
  pool: Pool;
  clock: Clock;
  timeZone: string;
  logger: Logger;
}

/** What someone who is not a known customer may use. */
const ANONYMOUS_TOOL = 'search_knowledge_base';

export const SERVER_INFO = { name: `${BUSINESS.shortName.toLowerCase()}-support-tools`, version: '0.1.0' } as const;

/** Run one tool call: scope from the caller and `_meta`, reads straight through, writes through the gate. */
export async function callTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  rawMeta: unknown,
  deps: ToolServerDeps,
  caller: Caller,
): Promise<CallToolResult> {
  const meta = CallMetaSchema.safeParse(rawMeta ?? {});
  if (!meta.success) return errorResult(new ToolError('invalid_arguments', `Invalid _meta: ${meta.error.message}`));
  // Any caller may send text Postgres can't store; clean it here so it is a normal argument, not
  // an 'internal' failure at the first query (the gate's hash uses the same cleaned form).
  args = storableJson(args);
  const via = callerLabel(caller);
  const logger = deps.logger.child({
    tool: tool.name,
    thread_id: meta.data.thread_id,
    approval_id: meta.data.approval_id,
    caller: via,
  });
  let scope: ToolContext['scope'];
  try {
    scope = scopeFor(caller, meta.data);
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    logger.warn({ code: err.code }, 'call refused: _meta claims more than the credential allows');
    return errorResult(err);
  }
  const ctx: ToolContext = {
    pool: deps.pool,
    clock: deps.clock,
    timeZone: deps.timeZone,
    scope,
    threadId: meta.data.thread_id,
    via,
    logger,
  };
  if (ctx.scope.kind === 'anonymous' && tool.name !== ANONYMOUS_TOOL) {
    return errorResult(
      new ToolError(
        'out_of_scope',
        'This conversation is not linked to a customer record, so only the knowledge base is available.',
      ),
    );
  }
  try {
    let result: unknown;
    let extra: Record<string, unknown> | undefined;
    if (!tool.mutating) {
      result = tool.output.parse(await tool.handler(args as never, ctx));
    } else if (meta.data.dry_run) {
      result = await dryRunWrite(tool, args, ctx);
      extra = { dry_run: true };
    } else {
      const gated = await runGatedWrite(tool, args, ctx, meta.data.approval_id);
      result = gated.result;
      extra = { approval_id: meta.data.approval_id, replay: gated.replay };
    }
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result as Record<string, unknown>,
      ...(extra ? { _meta: extra } : {}),
    };
  } catch (err) {
    if (err instanceof ToolError) return errorResult(err);
    ctx.logger.error({ err }, 'tool call failed');
    return errorResult(
      new ToolError('internal', 'The tool failed unexpectedly; nothing was changed. Try again later.'),
    );
  }
}

function errorResult(err: ToolError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: err.toJSON() }) }] };
}

/**
 * A fresh MCP server for a peer inside our process boundary: the stdio child of a worker, or an
 * in-process transport. Never for a network transport: that one authenticates and calls
 * `createToolServerFor` with what it established.
 */
export function createToolServer(deps: ToolServerDeps): McpServer {
  return createToolServerFor(deps, LOCAL_CALLER);
}

/** A fresh MCP server with every registry tool, for one caller. One per connection (stdio) or request (HTTP). */
export function createToolServerFor(deps: ToolServerDeps, caller: Caller): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      `Tools of ${BUSINESS.name}. Read-only tools run freely. ` +
      `Mutating tools (${[...MUTATING_TOOLS].join(', ')}) run only with _meta.approval_id ` +
      'of an approval a manager approved for exactly these arguments; ' +
      '_meta.customer_id limits a call to that customer.',
  });
  for (const tool of SERVED_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
      },
      (async (args: Record<string, unknown>, extra: { _meta?: unknown }) =>
        callTool(tool, args, extra._meta, deps, caller)) as never,
    );
  }
  return server;
}
