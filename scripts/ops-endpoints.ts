/**
 * The operator's endpoints beside `/healthz` (liveness, in product.ts): `/readyz` (may this worker
 * take traffic: database, tool server, Slack) and `/metrics` (Prometheus), and the route templates
 * the HTTP metrics are labelled with.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOOPBACK_HOST, type Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { approvalsByStatus, metricsRegistry } from '../core/metrics.js';
import type { Pool } from '../core/pg-pool.js';
import { isStopping } from '../core/shutdown.js';
import { APPROVAL_STATUSES } from '../schema/approval-status.js';
import { ApiKeys, clientAddress, presentedCredential } from '../agent/http/auth.js';
import { RateLimiter } from '../agent/http/rate-limit.js';
import { send } from '../agent/http/router.js';
import type { ToolClient } from '../agent/tool-client.js';
import { SLACK_EVENTS_PATH, type SlackBot } from '../bot/app.js';
import { SlackProbe, webApiProbe } from './slack-probe.js';

/** How long one readiness request may take at most: a load balancer's probe must not hang on us. */
export const READY_WAIT_MS = 1500;
/** Real Slack is asked at most this often (auth.test); the local workspace every time. */
export const SLACK_PROBE_MAX_AGE_MS = 60_000;
/** The approvals gauge is a GROUP BY over the ledger: at most one per this long per worker. */
const APPROVALS_MAX_AGE_MS = 5_000;

const EXACT_ROUTES = new Set(['/', '/healthz', '/readyz', '/metrics', '/chat', '/approvals', SLACK_EVENTS_PATH]);
const PATTERN_ROUTES: [RegExp, string][] = [
  [/^\/approvals\/[^/]+\/approve\/?$/, '/approvals/:id/approve'],
  [/^\/approvals\/[^/]+\/reject\/?$/, '/approvals/:id/reject'],
  [/^\/approvals\/[^/]+\/?$/, '/approvals/:id'],
  [/^\/threads\/[^/]+\/?$/, '/threads/:id'],
];

/** The template a path is counted under; anything unknown (404s, probes, scanners) is `other`. */
export function routeLabel(path: string): string {
  const p = path.length > 1 ? path.replace(/\/$/, '') : path;
  if (EXACT_ROUTES.has(p)) return p;
  return PATTERN_ROUTES.find(([re]) => re.test(path))?.[1] ?? 'other';
}

export interface OpsDeps {
  config: Config;
  pool: Pool;
  tools: ToolClient;
  logger: Logger;
  /** The Slack bot once started (undefined while starting); `false`: this product runs without Slack. */
  slack: () => SlackBot | undefined | false;
  /** The product's close() has begun. */
  closing: () => boolean;
}

/** `deadline` or what `work` said, whichever comes first. */
async function within<T>(ms: number, work: Promise<T>, deadline: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((r) => (timer = setTimeout(() => r(deadline), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createOpsEndpoints(deps: OpsDeps): {
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
} {
  const { config, pool, logger } = deps;
  const probes = new WeakMap<SlackBot, SlackProbe>();
  const probeOf = (bot: SlackBot) => {
    let probe = probes.get(bot);
    if (!probe) {
      const client = bot.app.client;
      probe = new SlackProbe(webApiProbe({ token: client.token, apiUrl: client.slackApiUrl }), {
        maxAgeMs: bot.mode === 'local' ? 0 : SLACK_PROBE_MAX_AGE_MS,
      });
      probes.set(bot, probe);
    }
    return probe;
  };

  let lastVerdict: string | undefined;
  async function readyz(res: ServerResponse): Promise<void> {
    if (deps.closing() || isStopping()) {
      // Out of rotation first: runs in flight drain while nothing new is sent here.
      return send(res, 503, { status: 'stopping', failed: ['stopping'] });
    }
    const bot = deps.slack();
    const [database, slack] = await Promise.all([
      within(
        READY_WAIT_MS,
        pool.query('SELECT 1').then(
          () => 'ok',
          () => 'unreachable',
        ),
        'timeout',
      ),
      bot === false
        ? Promise.resolve('disabled')
        : bot
          ? probeOf(bot)
              .check(READY_WAIT_MS)
              .then((r) => r.state)
          : Promise.resolve('starting'),
    ]);
    const toolServer = deps.tools.health().status;
    const failed = [
      ...(database === 'ok' ? [] : ['database']),
      ...(toolServer === 'ok' ? [] : ['tool_server']),
      ...(slack === 'ok' || slack === 'disabled' ? [] : ['slack']),
    ];
    // A balancer polls every few seconds: say when readiness changes, not on every poll.
    const verdict = failed.join(',');
    if (verdict !== lastVerdict) {
      if (failed.length) logger.warn({ failed, database, tool_server: toolServer, slack }, 'not ready');
      else if (lastVerdict !== undefined) logger.info('ready again');
      lastVerdict = verdict;
    }
    send(res, failed.length ? 503 : 200, {
      status: failed.length ? 'not_ready' : 'ready',
      database,
      tool_server: toolServer,
      slack,
      failed,
    });
  }

  // Beyond loopback the scrape needs a credential: it shows volumes and error rates per tool.
  const open = LOOPBACK_HOST.test(config.HOST.trim());
  const keys = new ApiKeys(config);
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  const metricsToken = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : undefined;
  const failures = new RateLimiter(pool, config.AUTH_FAILURES_PER_MINUTE);
  const refuse = (res: ServerResponse, status: number, code: string, message: string, headers = {}) =>
    send(res, status, { error: { code, message } }, headers);

  /** True when the scrape may go on; otherwise the refusal is sent. Wrong tokens share the API's budget. */
  async function admitScrape(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (open) return true;
    if (!metricsToken && !keys.hasManagerKeys) {
      refuse(res, 403, 'metrics_disabled', 'Set METRICS_TOKEN (or a manager key) to scrape /metrics on this HOST.');
      return false;
    }
    const credential = presentedCredential(req);
    if (credential === undefined) {
      refuse(res, 401, 'unauthorized', 'Send Authorization: Bearer <METRICS_TOKEN>.');
      return false;
    }
    const d = digest(credential);
    const tokenOk = metricsToken ? timingSafeEqual(d, metricsToken) : false;
    const ok = keys.identify(credential)?.role === 'manager' || tokenOk;
    const bucket = `authfail:${clientAddress(req)}`;
    const f = ok ? await failures.peek(bucket) : await failures.hit(bucket);
    if (!f.allowed) {
      const retry = String(f.retryAfterSeconds);
      refuse(res, 429, 'rate_limited', `Too many requests; try again in ${retry} s.`, { 'retry-after': retry });
      return false;
    }
    if (!ok) refuse(res, 401, 'invalid_key', 'That key is not valid.');
    return ok;
  }

  let approvalsAt = Number.NEGATIVE_INFINITY;
  async function refreshApprovals(): Promise<void> {
    if (Date.now() - approvalsAt < APPROVALS_MAX_AGE_MS) return;
    try {
      const r = await within(
        READY_WAIT_MS,
        pool.query<{ status: string; n: number }>(`SELECT status, count(*) AS n FROM approvals GROUP BY status`),
        undefined,
      );
      if (!r) throw new Error('approvals count timed out');
      const counts = new Map(r.rows.map((row) => [row.status, row.n]));
      for (const status of APPROVAL_STATUSES) approvalsByStatus.set({ status }, counts.get(status) ?? 0);
      approvalsAt = Date.now();
    } catch (err) {
      // The rest of the scrape still helps; a stale gauge would lie, so it goes.
      approvalsByStatus.reset();
      logger.warn({ err }, 'metrics: approvals by status unavailable');
    }
  }

  return {
    async handle(req, res) {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method !== 'GET') return false;
      if (path === '/readyz') {
        await readyz(res);
        return true;
      }
      if (path !== '/metrics') return false;
      if (!(await admitScrape(req, res))) return true;
      await refreshApprovals();
      const text = await metricsRegistry.metrics();
      res.writeHead(200, { 'content-type': metricsRegistry.contentType, 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return true;
    },
  };
}
