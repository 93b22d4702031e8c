import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { App, LogLevel, webApi, type Logger as BoltLogger } from '@slack/bolt';
import type { DeliveryPort } from '../agent/delivery-port.js';
import type { AgentService } from '../agent/service.js';
import type { Clock } from '../core/clock.js';
import { ConfigError, type Config } from '../core/config.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import { CardPublisher } from './cards.js';
import type { BotDeps } from './deps.js';
import { registerListeners } from './listeners/index.js';
import { ManagerDirectory } from './managers.js';
import { acceptSignedRequest, createSlackReceiver } from './receiver.js';
import { slackDelivery } from './slack-delivery.js';
import { webApiRetryConfig } from './web-api-retry.js';

/** The Slack endpoint on the product server: events and interactivity both arrive here. */
export const SLACK_EVENTS_PATH = '/slack/events';

/** How this worker talks to Slack: a real workspace (HTTP or Socket Mode), or the local one. */
export interface SlackConnection {
  mode: 'socket' | 'http' | 'local';
  botToken: string;
  signingSecret: string;
  appToken?: string;
  botUserId?: string;
  botId?: string;
  /** Web API base URL (the local workspace's `/api/`); unset: slack.com. */
  apiUrl?: string;
  supportChannel?: string;
  managersChannel: string;
  managerIds: readonly string[];
  managerGroupId?: string;
}

/** The connection for a real workspace, from configuration. Local mode builds its own (local-mode.ts). */
export function slackConnectionFromConfig(config: Config): SlackConnection {
  if (!config.SLACK_BOT_TOKEN || !config.SLACK_SIGNING_SECRET) {
    throw new ConfigError([
      {
        variable: 'SLACK_BOT_TOKEN',
        message: 'SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are both needed for a real workspace',
      },
    ]);
  }
  const problems: { variable: string; message: string }[] = [];
  if (!config.SLACK_MANAGERS_CHANNEL)
    problems.push({
      variable: 'SLACK_MANAGERS_CHANNEL',
      message: 'required with SLACK_BOT_TOKEN: the channel id where approval cards are posted',
    });
  if (!config.SLACK_MANAGER_IDS.length && !config.SLACK_MANAGER_GROUP_ID) {
    problems.push({
      variable: 'SLACK_MANAGER_IDS',
      message: 'set SLACK_MANAGER_IDS and/or SLACK_MANAGER_GROUP_ID: otherwise nobody can approve anything',
    });
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    mode: config.SLACK_APP_TOKEN ? 'socket' : 'http',
    botToken: config.SLACK_BOT_TOKEN,
    signingSecret: config.SLACK_SIGNING_SECRET,
    appToken: config.SLACK_APP_TOKEN,
    botUserId: config.SLACK_BOT_USER_ID,
    supportChannel: config.SLACK_SUPPORT_CHANNEL,
    managersChannel: config.SLACK_MANAGERS_CHANNEL!,
    managerIds: config.SLACK_MANAGER_IDS,
    managerGroupId: config.SLACK_MANAGER_GROUP_ID,
  };
}

export interface SlackBotOptions {
  config: Pick<Config, 'BUSINESS_TIMEZONE' | 'SWEEPER_INTERVAL_SECONDS' | 'LOG_LEVEL'> &
    Partial<Pick<Config, 'SLACK_PRIVATE_CHANNELS'>>;
  pool: Pool;
  agent: AgentService;
  logger: Logger;
  clock: Clock;
  connection: SlackConnection;
  /** Delay before the "working on it" reaction (default 1500 ms). */
  cueDelayMs?: number;
  /** How long an event's INSERT may take before the request is refused 5xx (default 2000 ms; Slack waits 3 s). */
  claimTimeoutMs?: number;
}

export interface AckStats {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export interface SlackBot {
  app: App;
  mode: SlackConnection['mode'];
  deps: BotDeps;
  /** The agent's delivery port into this workspace: connect it to the agent service's relay. */
  delivery: DeliveryPort;
  /** A request handler for the product server: takes POST /slack/events, leaves the rest. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Time from a Slack request's arrival to its HTTP answer (the ack), in ms, on this worker. */
  ackStats(): AckStats;
}

/** Bolt and its Web API client log through our pino logger (formatting only what will be written). */
function boltLogger(log: Logger): BoltLogger {
  const text = (msg: unknown[]) =>
    msg.map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m))).join(' ');
  const debug = (...m: unknown[]) => {
    if (log.isLevelEnabled('debug')) log.debug(text(m));
  };
  return {
    debug,
    info: debug, // Bolt's info is chatty (connections, listeners): our own logs say what matters
    warn: (...m) => log.warn(text(m)),
    error: (...m) => log.error(text(m)),
    setLevel: () => undefined,
    getLevel: () => (log.isLevelEnabled('debug') ? LogLevel.DEBUG : LogLevel.WARN),
    setName: () => undefined,
  };
}

/**
 * auth.test with a short leash: the Web API client's default retries a failing network for about
 * half an hour without a word. Unreachable Slack is a startup problem to state, not to wait out.
 */
async function whoAmI(c: SlackConnection) {
  const client = new webApi.WebClient(c.botToken, {
    ...(c.apiUrl ? { slackApiUrl: c.apiUrl } : {}),
    retryConfig: { retries: 2, factor: 1, minTimeout: 500, maxTimeout: 1000 },
    timeout: 5000,
  });
  try {
    return await client.auth.test();
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === webApi.ErrorCode.PlatformError) throw err; // Slack answered: a bad token, say
    throw new ConfigError([
      {
        variable: 'SLACK_BOT_TOKEN',
        message: `cannot reach Slack to check the token (${e.message ?? String(err)}); check the network`,
      },
    ]);
  }
}

/**
 * ONE Bolt app for this worker. HTTP mode: the product server mounts `handle` at /slack/events;
 * it verifies the signature (401), then Bolt's HTTPReceiver (`processBeforeResponse: false`, so
 * the ack does not wait for the work) behind a StoreFirstReceiver, which stores each Events API
 * delivery before Bolt acks it (5xx when it cannot, so Slack retries). Socket Mode when an app
 * token is configured, behind the same StoreFirstReceiver. The delivery port it returns (cards,
 * replies after a decision) goes through this app's Web API client.
 */
export async function createSlackBot(opts: SlackBotOptions): Promise<SlackBot> {
  const { logger: rootLogger } = opts;
  const logger = rootLogger.child({ component: 'slack' });
  let c = opts.connection;
  if (!c.botUserId) {
    // Learn who we are once, up front: a bad token fails here with a clear error, and Bolt never
    // needs auth.test again (it would otherwise call it before acking requests). A configured
    // SLACK_BOT_USER_ID skips it: the user id is what tells our own messages apart.
    const who = await whoAmI(c);
    c = { ...c, botUserId: who.user_id, botId: who.bot_id };
    logger.info({ team: who.team, bot_user: who.user_id, mode: c.mode }, 'slack app authenticated');
  }
  const bolt = boltLogger(logger);
  const { receiver, http } = createSlackReceiver(c, {
    endpoint: SLACK_EVENTS_PATH,
    pool: opts.pool,
    logger,
    boltLogger: bolt,
    claimTimeoutMs: opts.claimTimeoutMs,
  });
  const app = new App({
    token: c.botToken,
    botId: c.botId,
    botUserId: c.botUserId,
    // Both ids are known (above), so Bolt makes no auth.test call at all.
    tokenVerificationEnabled: false,
    logger: bolt,
    receiver,
    clientOptions: {
      ...(c.apiUrl ? { slackApiUrl: c.apiUrl } : {}),
      // Every mode waits out a 429's Retry-After; local mode fails anything else at once (web-api-retry.ts).
      rejectRateLimitedCalls: false,
      ...(c.mode === 'local' ? { retryConfig: webApiRetryConfig(c.mode) } : {}),
    },
  });

  const managers = new ManagerDirectory({
    ids: c.managerIds,
    groupId: c.managerGroupId,
    client: () => app.client,
    logger,
  });
  const cards = new CardPublisher({
    pool: opts.pool,
    ledger: opts.agent.ledger,
    clock: opts.clock,
    logger,
    timeZone: opts.config.BUSINESS_TIMEZONE,
    managersChannel: c.managersChannel,
    client: () => app.client,
  });
  const deps: BotDeps = {
    pool: opts.pool,
    agent: opts.agent,
    logger,
    clock: opts.clock,
    timeZone: opts.config.BUSINESS_TIMEZONE,
    managers,
    cards,
    channels: {
      support: c.supportChannel,
      managers: c.managersChannel,
      private: opts.config.SLACK_PRIVATE_CHANNELS ?? [],
    },
    cueDelayMs: opts.cueDelayMs ?? 1500,
    // Slack and the local workspace both offer the picker; the text input is for a workspace that can't.
    userPicker: 'users_select',
  };

  registerListeners(app, deps);
  app.error(async (error) => {
    logger.error({ err: error.original ?? error, code: error.code }, 'slack listener failed');
  });

  // Approvals that change outside a Slack request (a decision's execution, expiry, the sweeper,
  // the HTTP API) reach Slack through this port, on whichever worker made the change.
  const delivery = slackDelivery(deps, () => app.client);

  const acks: number[] = [];
  let stopReconciler: (() => void) | undefined;
  let started = false;

  return {
    app,
    mode: c.mode,
    deps,
    delivery,
    async handle(req, res) {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== SLACK_EVENTS_PATH || !http) return false;
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return true;
      }
      const t0 = performance.now();
      res.once('finish', () => {
        const ms = performance.now() - t0;
        acks.push(ms);
        if (acks.length > 5000) acks.splice(0, acks.length - 5000);
        const retry = req.headers['x-slack-retry-num'];
        const line = {
          ack_ms: Math.round(ms * 10) / 10,
          status: res.statusCode,
          ...(retry ? { retry_num: Number(retry) } : {}),
        };
        if (ms > 2000) logger.warn(line, 'slow slack ack');
        else logger.debug(line, 'slack request acked');
      });
      if (await acceptSignedRequest(req, res, { signingSecret: c.signingSecret, logger }))
        http.requestListener(req, res);
      return true;
    },
    async start() {
      if (started) return;
      started = true;
      if (!managers.configured) logger.warn('no Slack managers configured: nobody can approve anything');
      if (c.mode === 'socket') await app.start();
      stopReconciler = cards.startReconciler(opts.config.SWEEPER_INTERVAL_SECONDS * 1000);
    },
    async stop() {
      stopReconciler?.();
      // Cards already claimed finish sending (bounded: what is left is due, and any worker sends it later).
      await Promise.race([cards.idle(), new Promise((r) => setTimeout(r, 2000).unref())]);
      if (c.mode === 'socket' && started) await app.stop().catch(() => undefined);
    },
    ackStats() {
      const sorted = [...acks].sort((a, b) => a - b);
      const at = (q: number) =>
        sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
      return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
    },
  };
}
