import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { homeHtml, homeJson, type RunningSummary } from './home-page.js';
import { apiConfigProblems, ConfigError, slackMode, type Config } from '../core/config.js';
import type { Clock } from '../core/clock.js';
import type { Database } from '../core/connect-database.js';
import { openDatabase } from '../schema/open-database.js';
import type { Logger } from '../core/logger.js';
import { DeliveryRelay } from '../agent/delivery-port.js';
import { createAgentRuntime, type AgentRuntime } from '../agent/runtime.js';
import { createApiRouter } from '../agent/http/api.js';
import { send } from '../agent/http/router.js';
import { startEmailDispatcher } from '../mcp-server/email-dispatcher.js';
import { countHttpRequest } from '../core/metrics.js';
import { createOpsEndpoints, routeLabel } from './ops-endpoints.js';
import { createSlackBot, slackConnectionFromConfig, type SlackBot, type SlackConnection } from '../bot/app.js';
import { joinLocalWorkspace, localConnection, startLocalWorkspace } from '../bot/local-mode.js';
import type { LocalSlack, LocalSlackTiming } from '../local-slack/index.js';

export interface ProductSlackOptions {
  /** Talk to this workspace instead of the configured one (several workers sharing one local workspace). */
  connection?: SlackConnection;
  /** Local mode: the workspace's timings (tests shrink them). */
  localTiming?: LocalSlackTiming;
  /** Delay before the "working on it" reaction. */
  cueDelayMs?: number;
}

export interface ProductSlack {
  bot: SlackBot;
  /** The local workspace this product started (local mode only). */
  local?: LocalSlack;
  /** Its browser console. */
  consoleUrl?: string;
}

export interface Product {
  url: string;
  db: Database;
  agent: AgentRuntime;
  /** Extra request handlers (the Slack bot mounts itself here): return true when handled. */
  mount(handler: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>): void;
  /** The Slack bot (absent with `slack: false`). */
  slack?: ProductSlack;
  close(): Promise<void>;
}

/**
 * Everything `npm start` runs, in one process: database (embedded when none is configured),
 * schema, seed, tool server session, agent, HTTP API, sweeper, email dispatcher.
 */
export async function startProduct(opts: {
  config: Config;
  logger: Logger;
  clock: Clock;
  port?: number;
  /** Injection points for tests and evals: the chat model, the tool server transport, the worker id. */
  model?: BaseChatModel;
  transport?: Transport;
  workerId?: string;
  /** What `GET /` shows (npm start): what runs where. */
  home?: () => RunningSummary;
  /** The Slack bot: configured workspace, or local mode without tokens (default); `false`: none. */
  slack?: ProductSlackOptions | false;
}): Promise<Product> {
  const { config, logger, clock } = opts;
  // Refused before anything starts: an open /chat on a reachable interface lets anyone be any customer.
  const apiProblems = apiConfigProblems(config);
  if (apiProblems.length) throw new ConfigError(apiProblems);
  const db = await openDatabase(config, { logger, clock });
  // The bot needs the agent service before it exists, so the service gets a relay the bot joins.
  const delivery = new DeliveryRelay();
  const agent = await createAgentRuntime({
    config,
    pool: db.pool,
    databaseUrl: db.url,
    clock,
    logger,
    model: opts.model,
    transport: opts.transport,
    workerId: opts.workerId,
    delivery,
  });
  const api = createApiRouter({ config, pool: db.pool, agent: agent.service, logger });
  const mounted: ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>)[] = [];
  // Up here: /readyz reads it from the first request on (Slack starts while the server listens).
  let closed = false;
  let slack: ProductSlack | undefined;
  const ops = createOpsEndpoints({
    config,
    pool: db.pool,
    tools: agent.tools,
    logger,
    slack: () => (opts.slack === false ? false : slack?.bot),
    closing: () => closed,
  });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      countHttpRequest(req, res, () => routeLabel(path));
      if (req.method === 'GET' && path === '/healthz') {
        const dbOk = await db.pool.query('SELECT 1').then(
          () => true,
          () => false,
        );
        // Without its tool server a worker can only fail chats: take it out of rotation too. The
        // reason (last_error) stays in the logs: this endpoint needs no key.
        const tools = agent.tools.health();
        const ok = dbOk && tools.status === 'ok';
        return send(res, ok ? 200 : 503, {
          status: ok ? 'ok' : 'degraded',
          database: dbOk ? 'ok' : 'unreachable',
          embedded_database: db.embedded,
          tool_server: tools.status,
          tool_server_restarts: tools.restarts,
        });
      }
      if (await ops.handle(req, res)) return;
      if (req.method === 'GET' && path === '/' && opts.home) {
        const summary = opts.home();
        if ((req.headers.accept ?? '').includes('text/html')) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return void res.end(homeHtml(summary));
        }
        return send(res, 200, homeJson(summary));
      }
      for (const handler of mounted) if (await handler(req, res)) return;
      if (await api.handle(req, res, (err) => logger.error({ err, url: req.url }, 'request failed'))) return;
      send(res, 404, { error: { code: 'not_found', message: `No route ${req.method} ${path}.` } });
    })().catch((err) => {
      logger.error({ err }, 'request crashed');
      if (!res.headersSent) send(res, 500, { error: { code: 'internal', message: 'Internal error.' } });
    });
  });
  const port = opts.port ?? config.PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.HOST, () => resolve());
  });
  const url = `http://${config.HOST}:${(server.address() as AddressInfo).port}`;

  if (opts.slack !== false) {
    try {
      slack = await startSlack(opts.slack ?? {}, { config, logger, clock, db, agent, delivery, url });
      mounted.push((req, res) => slack!.bot.handle(req, res));
    } catch (err) {
      await new Promise<void>((r) => server.close(() => r()));
      await agent.close();
      await db.close();
      throw err;
    }
  }

  const stopSweeper = agent.service.startSweeper(config.SWEEPER_INTERVAL_SECONDS * 1000);
  const dispatcher = startEmailDispatcher({
    pool: db.pool,
    clock,
    logger,
    smtpUrl: config.SMTP_URL,
    dataDir: config.DATA_DIR,
    intervalMs: 5000,
  });

  return {
    url,
    db,
    agent,
    mount: (h) => mounted.push(h),
    slack,
    close: async () => {
      if (closed) return;
      closed = true;
      stopSweeper();
      await slack?.bot.stop();
      delivery.disconnect();
      await slack?.local?.close();
      await dispatcher.stop();
      const stopped = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections?.();
      await stopped;
      server.closeAllConnections?.();
      await agent.close();
      await db.close();
    },
  };
}

/**
 * The Slack side of the product: a real workspace when tokens are configured; otherwise a local
 * workspace on LOCAL_SLACK_PORT (channels #support and #managers, the demo users, a generated
 * signing secret and token) delivering to this product's /slack/events.
 */
async function startSlack(
  o: ProductSlackOptions,
  p: {
    config: Config;
    logger: Logger;
    clock: Clock;
    db: Database;
    agent: AgentRuntime;
    delivery: DeliveryRelay;
    url: string;
  },
): Promise<ProductSlack> {
  // Connected before the bot starts, so no reply of an early event is "delivered" by being stored.
  const make = async (connection: SlackConnection) => {
    const bot = await createSlackBot({
      config: p.config,
      pool: p.db.pool,
      agent: p.agent.service,
      logger: p.logger,
      clock: p.clock,
      connection,
      cueDelayMs: o.cueDelayMs,
    });
    p.delivery.connect(bot.delivery);
    return bot;
  };
  if (o.connection) {
    const bot = await make(o.connection);
    await bot.start();
    return { bot };
  }
  if (slackMode(p.config) !== 'local') {
    const bot = await make(slackConnectionFromConfig(p.config));
    await bot.start();
    return { bot };
  }
  const connection = localConnection({ managerIds: p.config.SLACK_MANAGER_IDS });
  const eventsUrl = `${p.url}/slack/events`;
  const local = await startLocalWorkspace(connection, {
    port: p.config.LOCAL_SLACK_PORT,
    eventsUrls: [eventsUrl],
    logger: p.logger,
    timing: o.localTiming,
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    return undefined;
  });
  if (!local) {
    // Another worker on this machine runs the workspace: join it, so cards are shared (like the database).
    const joined = await joinLocalWorkspace(connection, { port: p.config.LOCAL_SLACK_PORT, eventsUrl });
    if (!joined) {
      throw new ConfigError([
        {
          variable: 'LOCAL_SLACK_PORT',
          message:
            `port ${p.config.LOCAL_SLACK_PORT} is in use by something that is not a local Slack workspace; ` +
            'set another port, or 0 for a free one',
        },
      ]);
    }
    const { workspace } = joined;
    p.logger.info({ console: `${workspace.url}/` }, 'joined the local Slack workspace another worker runs');
    try {
      const bot = await make(joined.connection);
      await bot.start();
      const stop = bot.stop;
      // Leave the rotation before this worker's server closes, so the workspace stops sending it events.
      bot.stop = async () => {
        await stop();
        await workspace.detach();
      };
      return { bot, consoleUrl: `${workspace.url}/` };
    } catch (err) {
      await workspace.detach();
      throw err;
    }
  }
  try {
    const bot = await make({ ...connection, apiUrl: local.apiUrl });
    await bot.start();
    return { bot, local, consoleUrl: `${local.url}/` };
  } catch (err) {
    await local.close();
    throw err;
  }
}
