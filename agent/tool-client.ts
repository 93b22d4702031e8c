import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { isStopping } from '../core/shutdown.js';
import { parseToolError } from '../schema/tools/errors.js';
import type { CallMeta } from '../schema/tools/call-meta.js';
import { getTool } from '../schema/tools/catalog.js';
import { measureToolCall } from '../core/metrics.js';
import { toolServerCommand } from './tool-server-command.js';

export type ToolCallOutcome =
  | { ok: true; result: Record<string, unknown>; replay?: boolean }
  | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };

export type ToolServerStatus = 'ok' | 'restarting' | 'down';

export interface ToolServerHealth {
  status: ToolServerStatus;
  /** Sessions re-established after a lost one, since this client was created. */
  restarts: number;
  /** Why the last session ended or the last reconnect failed (for operators; may name hosts). */
  last_error?: string;
}

/**
 * The tool server could not take or finish this call: its session is gone (child exited, killed,
 * connection refused) or is being re-established. Thrown, never returned as an outcome, so a graph
 * run fails and is retried (by the caller, or the sweeper for an approved write) instead of
 * telling a customer that something failed.
 */
export class ToolServerUnavailableError extends Error {
  readonly code = 'tool_server_unavailable' as const;
  constructor(
    message: string,
    readonly details: { tool: string; sent: boolean; reason?: string },
  ) {
    super(message);
    this.name = 'ToolServerUnavailableError';
  }
}

export interface ToolClientOptions {
  logger?: Logger;
  /** How long a call waits for a session being re-established before it fails. */
  reconnectWaitMs?: number;
  /** Delay between reconnect attempts: doubling from initialMs up to maxMs, while not closed. */
  backoff?: { initialMs: number; maxMs: number };
  /** Consecutive failed reconnects after which health says `down` and calls fail without waiting. */
  downAfterFailures?: number;
  /** Largest request to send; default: just under the stdio read buffer for stdio, unbounded otherwise. */
  maxMessageBytes?: number;
}

/** One MCP session: a Client on one transport. A lost session is never reused. */
interface Session {
  client: Client;
  lost: boolean;
  error?: string;
}

/** How long a lost session waits before it is reported and reopened (see `lose`). */
const STOP_GRACE_MS = 250;

// The server's read buffer also holds the start of whatever follows our message (one pipe chunk).
const STDIO_MESSAGE_LIMIT = STDIO_DEFAULT_MAX_BUFFER_SIZE - 64 * 1024;
// JSON-RPC envelope around the params ({"jsonrpc":"2.0","id":n,"method":"tools/call","params":...}).
const ENVELOPE_BYTES = 256;

/**
 * The agent's only door to the business: an MCP client session. Which transport is a deployment
 * choice (a stdio child per worker, or one shared Streamable HTTP service); the agent can't tell.
 *
 * Given a transport factory, the client supervises its session: when the transport closes or
 * fails (the stdio child exited, the HTTP service is unreachable) every call in flight is rejected
 * at once with ToolServerUnavailableError, a new session is opened with a bounded backoff, and
 * calls made meanwhile wait a bounded time for it. Given a single transport it cannot reconnect:
 * a lost session leaves it `down`.
 */
export class ToolClient {
  private tools?: Tool[];
  private session?: Session;
  private status: ToolServerStatus = 'ok';
  private restarts = 0;
  private failures = 0;
  private lastError?: string;
  private closed = false;
  private maxMessageBytes = Number.POSITIVE_INFINITY;
  private reconnecting?: Promise<void>;
  private readonly waiters = new Set<() => void>();
  private wakeBackoff?: () => void;
  private opening?: Client;
  private readonly log: Logger;

  private constructor(
    private readonly factory: (() => Transport) | undefined,
    private readonly opts: ToolClientOptions,
  ) {
    this.log = (opts.logger ?? silentLogger).child({ component: 'tool-client' });
  }

  /** Open the first session (failing loudly if it can't), then keep one open until close(). */
  static async connect(source: Transport | (() => Transport), opts: ToolClientOptions = {}): Promise<ToolClient> {
    const factory = typeof source === 'function' ? source : undefined;
    const tc = new ToolClient(factory, opts);
    await tc.open(factory ? factory() : (source as Transport), false);
    return tc;
  }

  health(): ToolServerHealth {
    return {
      status: this.closed ? 'down' : this.status,
      restarts: this.restarts,
      ...(this.lastError ? { last_error: this.lastError } : {}),
    };
  }

  async listTools(): Promise<Tool[]> {
    this.tools ??= (await this.request('tools/list', {}, (c) => c.listTools())).tools;
    return this.tools;
  }

  call(name: string, args: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome> {
    // A name the model made up is one series (`unknown`), not one per invention.
    return measureToolCall(getTool(name) ? name : 'unknown', () => this.callOnce(name, args, meta));
  }

  private async callOnce(name: string, args: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome> {
    if (Number.isFinite(this.maxMessageBytes)) {
      // The stdio server stops reading (for good) at a line over its buffer: refuse here, where
      // the caller learns why, rather than losing the session for every conversation.
      const bytes = Buffer.byteLength(JSON.stringify({ name, arguments: args, _meta: meta })) + ENVELOPE_BYTES;
      if (bytes > this.maxMessageBytes) {
        this.log.warn(
          { tool: name, thread_id: meta.thread_id, approval_id: meta.approval_id, bytes },
          'tool call too large to send',
        );
        return {
          ok: false,
          error: {
            code: 'invalid_arguments',
            message:
              'The arguments are too large to send to the tool server ' +
              `(${bytes} bytes; at most ${this.maxMessageBytes}).`,
            details: { bytes, max_bytes: this.maxMessageBytes },
          },
        };
      }
    }
    const res = await this.request(name, meta, (c) => c.callTool({ name, arguments: args, _meta: meta }));
    const text = Array.isArray(res.content) ? res.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '';
    if (res.isError) {
      return { ok: false, error: parseToolError(text) ?? { code: 'internal', message: text || 'tool failed' } };
    }
    const result = (res.structuredContent as Record<string, unknown> | undefined) ?? JSON.parse(text || '{}');
    return { ok: true, result, replay: (res._meta as { replay?: boolean } | undefined)?.replay };
  }

  /** Stop reconnecting and end the session (for stdio: the child). */
  async close(): Promise<void> {
    this.closed = true;
    this.wakeBackoff?.();
    this.notifyWaiters();
    const session = this.session;
    this.session = undefined;
    if (session) {
      session.lost = true;
      await session.client.close().catch(() => undefined);
    }
    // A reconnect mid-way: end the child it is starting rather than wait for its handshake.
    await this.opening?.close().catch(() => undefined);
    await this.reconnecting?.catch(() => undefined);
  }

  private async request<T>(tool: string, meta: Partial<CallMeta>, run: (client: Client) => Promise<T>): Promise<T> {
    const session = await this.liveSession(tool);
    try {
      return await run(session.client);
    } catch (err) {
      // An McpError other than "connection closed" is the server's (or the SDK's) answer to
      // this request, the session is fine: the caller handles it as before.
      if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed) throw err;
      const reason = describe(err);
      const sent = !neverSent(err);
      this.lose(session, reason);
      this.log.warn(
        { tool, thread_id: meta.thread_id, approval_id: meta.approval_id, reason, sent },
        'tool call lost with the tool server session',
      );
      throw new ToolServerUnavailableError(
        sent
          ? `The tool server went away before answering ${tool}; it is being restarted. ` +
              'A write is all or nothing, and a retry with the same approval returns what it did.'
          : `The tool server is unavailable (restarting); ${tool} was not sent, so nothing was written by this call.`,
        { tool, sent, reason },
      );
    }
  }

  /** The current session, waiting (bounded) for one being re-established. */
  private async liveSession(tool: string): Promise<Session> {
    if (!this.usable()) {
      if (!this.closed && this.factory && this.status !== 'down') {
        const waitMs = this.opts.reconnectWaitMs ?? 10_000;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            this.waiters.delete(done);
            resolve();
          };
          const timer = setTimeout(done, waitMs);
          this.waiters.add(done);
        });
      }
      if (!this.usable()) {
        throw new ToolServerUnavailableError(
          `The tool server is unavailable (${this.closed ? 'client closed' : this.health().status}); ` +
            `${tool} was not sent, so nothing was written by this call.`,
          { tool, sent: false, reason: this.lastError },
        );
      }
    }
    return this.session!;
  }

  private usable(): boolean {
    return !this.closed && !!this.session && !this.session.lost;
  }

  private async open(transport: Transport, restart: boolean): Promise<void> {
    const client = new Client({ name: 'support-agent', version: '0.1.0' });
    const session: Session = { client, lost: false };
    client.onerror = (err) => (session.error = describe(err));
    client.onclose = () => this.lose(session, session.error ?? 'tool server connection closed');
    this.opening = client;
    try {
      await client.connect(transport);
    } catch (err) {
      session.lost = true;
      await client.close().catch(() => undefined);
      throw err;
    } finally {
      this.opening = undefined;
    }
    if (this.closed) {
      session.lost = true;
      await client.close().catch(() => undefined);
      return;
    }
    if (session.lost) throw new Error(session.error ?? 'tool server connection closed while opening');
    if (transport instanceof StdioClientTransport) this.maxMessageBytes = STDIO_MESSAGE_LIMIT;
    if (this.opts.maxMessageBytes !== undefined) this.maxMessageBytes = this.opts.maxMessageBytes;
    this.session = session;
    this.status = 'ok';
    this.failures = 0;
    if (restart) this.restarts++;
    this.notifyWaiters();
  }

  /** Mark a session lost (once) and start re-establishing one. */
  private lose(session: Session, reason: string): void {
    if (session.lost) return;
    session.lost = true;
    // The SDK rejects the calls in flight as the transport closes; for HTTP no close event comes.
    void session.client.close().catch(() => undefined);
    // A session still opening: open() reports its failure to whoever is opening it.
    if (this.session !== session) return;
    this.session = undefined;
    if (this.closed) return;
    this.lastError = reason;
    if (!this.factory) {
      this.status = 'down';
      this.log.error({ reason }, 'tool server session lost; this transport cannot be reopened');
      this.notifyWaiters();
      return;
    }
    this.status = 'restarting';
    // Ctrl-C reaches the stdio child and this process at once, and the child can be gone before this
    // process has run its own signal handler: a moment's wait tells a stop from a fault.
    const timer = setTimeout(() => {
      if (this.closed || this.session) return;
      if (isStopping()) {
        this.log.debug({ reason }, 'tool server session ended while stopping');
        return;
      }
      this.log.warn({ reason, restarts: this.restarts }, 'tool server session lost; reconnecting');
      this.reconnecting ??= this.reconnect().finally(() => (this.reconnecting = undefined));
    }, STOP_GRACE_MS);
    timer.unref?.();
  }

  private async reconnect(): Promise<void> {
    const { initialMs, maxMs } = this.opts.backoff ?? { initialMs: 100, maxMs: 5_000 };
    const downAfter = this.opts.downAfterFailures ?? 3;
    let delay = initialMs;
    while (!this.closed) {
      try {
        await this.open(this.factory!(), true);
        if (!this.closed) this.log.info({ restarts: this.restarts }, 'tool server session re-established');
        return;
      } catch (err) {
        this.failures++;
        this.lastError = describe(err);
        if (this.failures >= downAfter && this.status !== 'down') {
          this.status = 'down';
          // Callers stop waiting: each would time out anyway while the server stays unreachable.
          this.notifyWaiters();
        }
        this.log.warn(
          { reason: this.lastError, failures: this.failures, retry_in_ms: delay },
          'tool server reconnect failed',
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wakeBackoff = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeBackoff = undefined;
      delay = Math.min(delay * 2, maxMs);
    }
  }

  private notifyWaiters(): void {
    for (const done of [...this.waiters]) done();
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // fetch's "fetch failed" says nothing; its cause names the socket error.
  const cause = (err as { cause?: { code?: string } }).cause?.code;
  return cause ? `${err.message} (${cause})` : err.message;
}

/** The request certainly never reached the server: no session, or no connection to make. */
function neverSent(err: unknown): boolean {
  if (err instanceof Error && /^not connected$/i.test(err.message)) return true;
  const code = (err as { cause?: { code?: string } } | undefined)?.cause?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/** The tool server as a child process over stdio, sharing our database. */
export function stdioTransport(env: Record<string, string>): StdioClientTransport {
  const { args, cwd } = toolServerCommand();
  return new StdioClientTransport({ command: process.execPath, args, env, cwd, stderr: 'inherit' });
}

export function httpTransport(url: string, apiKey?: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: apiKey ? { headers: { Authorization: `Bearer ${apiKey}` } } : undefined,
  });
}
