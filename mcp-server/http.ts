/**
 * The tool server as one shared Streamable HTTP service (`npm run mcp:http`): POST /mcp, stateless
 * (a fresh server and transport per request, no session ids), so any number of replicas can sit
 * behind a load balancer. The bearer credential decides the caller: `MCP_API_KEY` is the agent,
 * `MCP_STAFF_KEYS` are staff, and with no key configured a caller gets the knowledge base only
 * (see caller.ts). Host and Origin are checked on every /mcp request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { markStopping } from '../core/shutdown.js';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { clockFromConfig } from '../core/clock.js';
import { ConfigError, loadConfig } from '../core/config.js';
import { openDatabase } from '../schema/open-database.js';
import { createLogger } from '../core/logger.js';
import { runMain } from '../core/run-main.js';
import { startEmailDispatcher } from './email-dispatcher.js';
import { createAuthenticator, createOriginGuard, exposureProblems, type StaffKey } from './http-auth.js';
import { createToolServerFor, SERVER_INFO, type ToolServerDeps } from './server.js';

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpToolServer {
  /** Full URL of the MCP endpoint, e.g. http://127.0.0.1:3001/mcp. */
  url: string;
  close(): Promise<void>;
}

export interface HttpToolServerOptions {
  deps: ToolServerDeps;
  /** 0 = any free port. */
  port?: number;
  host?: string;
  /** The agent's key (`MCP_API_KEY`). With any key configured, every /mcp request needs one. */
  apiKey?: string;
  /** Staff keys (`MCP_STAFF_KEYS`): the only way to staff scope. */
  staffKeys?: readonly StaffKey[];
  /** Host names accepted besides loopback and the bind address (`MCP_ALLOWED_HOSTS`). */
  allowedHosts?: readonly string[];
  /** Browser origins accepted besides loopback pages (`MCP_ALLOWED_ORIGINS`). */
  allowedOrigins?: readonly string[];
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startHttpToolServer(opts: HttpToolServerOptions): Promise<HttpToolServer> {
  const { deps } = opts;
  const host = opts.host ?? '127.0.0.1';
  const credentials = { apiKey: opts.apiKey, staffKeys: opts.staffKeys };
  // Here as well as in main(): an embedder gets the same refusal as `npm run mcp:http`.
  const exposure = exposureProblems(host, credentials);
  if (exposure.length) throw new ConfigError(exposure);
  const authenticate = createAuthenticator(credentials);
  const originProblem = createOriginGuard({
    bindHost: host,
    allowedHosts: opts.allowedHosts,
    allowedOrigins: opts.allowedOrigins,
  });
  const log = deps.logger.child({ component: 'mcp-http' });

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // First, before the credential: a rebinding page has none, but must not even learn whether one is needed.
    const forbidden = originProblem(req);
    if (forbidden) {
      log.warn(
        { host: req.headers.host?.slice(0, 100), origin: req.headers.origin?.slice(0, 100) },
        'MCP request refused: foreign Host or Origin',
      );
      return sendJson(res, 403, rpcError(-32000, `Forbidden: ${forbidden}`));
    }
    const auth = authenticate(req);
    if (!auth.ok) {
      return sendJson(
        res,
        401,
        rpcError(-32001, 'Unauthorized: send Authorization: Bearer <MCP_API_KEY> (or a staff key).'),
        {
          'www-authenticate':
            auth.reason === 'invalid' ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"',
        },
      );
    }
    if (req.method !== 'POST') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return sendJson(res, 405, rpcError(-32000, 'Method not allowed: this server is stateless, use POST.'), {
        allow: 'POST',
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (err) {
      const status = (err as { status?: number }).status ?? 400;
      return sendJson(
        res,
        status,
        rpcError(-32700, status === 413 ? 'Request body too large.' : 'Parse error: the body is not JSON.'),
      );
    }
    const server = createToolServerFor(deps, auth.caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    void (async () => {
      if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
        const ok = await deps.pool.query('SELECT 1').then(
          () => true,
          () => false,
        );
        return sendJson(res, ok ? 200 : 503, {
          status: ok ? 'ok' : 'degraded',
          database: ok ? 'ok' : 'unreachable',
          server: SERVER_INFO,
        });
      }
      if (path === MCP_PATH) return handleMcp(req, res);
      sendJson(res, 404, {
        error: { code: 'not_found', message: `No route ${req.method} ${path}; the MCP endpoint is POST ${MCP_PATH}.` },
      });
    })().catch((err) => {
      log.error({ err }, 'MCP HTTP request failed');
      sendJson(res, 500, rpcError(-32603, 'Internal error.'));
    });
  });
  http.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}${MCP_PATH}`;
  let closed = false;
  return {
    url,
    close: async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeIdleConnections();
        // A client that keeps a connection open past a short grace period is cut off.
        setTimeout(() => http.closeAllConnections(), 2_000).unref();
      });
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const credentials = { apiKey: config.MCP_API_KEY, staffKeys: config.MCP_STAFF_KEYS };
  // Before the database is opened: a refusal is one message, not a half-started service.
  const exposure = exposureProblems(config.HOST, credentials);
  if (exposure.length) throw new ConfigError(exposure);
  const logger = createLogger(config, { name: 'mcp-http' });
  const clock = clockFromConfig(config);
  const db = await openDatabase(config, { logger, clock, applicationName: 'mcp-http' });
  const deps: ToolServerDeps = { pool: db.pool, clock, timeZone: config.BUSINESS_TIMEZONE, logger };
  const server = await startHttpToolServer({
    deps,
    port: config.MCP_HTTP_PORT,
    host: config.HOST,
    ...credentials,
    allowedHosts: config.MCP_ALLOWED_HOSTS,
    allowedOrigins: config.MCP_ALLOWED_ORIGINS,
  });
  // The shared service also delivers queued email unless told not to (npm start runs its own
  // dispatcher; several are safe together: rows are claimed with SKIP LOCKED).
  const dispatcher = process.argv.includes('--no-email-dispatcher')
    ? undefined
    : startEmailDispatcher({
        pool: db.pool,
        clock,
        logger,
        smtpUrl: config.SMTP_URL,
        dataDir: config.DATA_DIR,
        from: config.EMAIL_FROM,
        intervalMs: 5000,
      });
  logger.info(
    {
      url: server.url,
      health: server.url.replace(MCP_PATH, '/healthz'),
      // Names only: never a key.
      auth: {
        agent: Boolean(config.MCP_API_KEY),
        staff: config.MCP_STAFF_KEYS.map((k) => k.name),
        unauthenticated: config.MCP_API_KEY || config.MCP_STAFF_KEYS.length ? 'refused' : 'knowledge base only',
      },
      allowed_hosts: config.MCP_ALLOWED_HOSTS,
      email: dispatcher?.transportName ?? 'off',
    },
    'MCP tool server ready (Streamable HTTP, stateless)',
  );
  if (['0.0.0.0', '::'].includes(config.HOST) && !config.MCP_ALLOWED_HOSTS.length) {
    logger.warn(
      { host: config.HOST },
      'MCP_ALLOWED_HOSTS is empty: only requests addressed to a loopback host are answered (others get 403)',
    );
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    markStopping();
    logger.info({ signal }, 'shutting down');
    await server.close();
    await dispatcher?.stop();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runMain(main);
