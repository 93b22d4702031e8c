// startLocalSlack: one HTTP server that is the Web API, the response_url host and the browser console,
// plus the driving/inspection API tests use to act as people in the workspace.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { workerRoutes } from './attach.js';
import { consoleRoutes } from './console.js';
import { Deliverer } from './delivery.js';
import { Interactions } from './interactions.js';
import { RateLimiter } from './rate-limits.js';
import { handleResponseUrl, type HttpReply } from './response-url.js';
import type { LocalSlack, LocalSlackLogger, LocalSlackOptions } from './types.js';
import { UserActions } from './user-actions.js';
import { handleApiRequest } from './web-api.js';
import { Workspace } from './workspace.js';

const SILENT: LocalSlackLogger = { info() {}, warn() {}, error() {} };
const MAX_BODY = 5 * 1024 * 1024;
const CONSOLE_HTML = new URL('./console.html', import.meta.url);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, r: HttpReply, type = 'application/json; charset=utf-8'): void {
  res.writeHead(r.status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(r.body);
}

export async function startLocalSlack(opts: LocalSlackOptions): Promise<LocalSlack> {
  const logger = opts.logger ?? SILENT;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timing = opts.timing ?? {};
  const triggerTtlMs = timing.triggerTtlMs ?? 3000;

  const ws = new Workspace(
    {
      teamId: opts.teamId ?? 'T0LOCAL0001',
      appId: opts.appId ?? 'A0LOCAL0001',
      botId: opts.botId,
      botUserId: opts.botUserId,
      botToken: opts.botToken,
    },
    opts.users,
    opts.channels,
    opts.userGroups,
  );
  const deliverer = new Deliverer({
    urls: opts.eventsUrls,
    signingSecret: opts.signingSecret,
    ackTimeoutMs: timing.ackTimeoutMs ?? 3000,
    retryDelaysMs: timing.retryDelaysMs ?? [0, 1000, 5000],
    retryOnFailure: opts.retryOnFailure ?? true,
    logger,
  });
  const interactions = new Interactions(ws, deliverer, url, logger);
  const people = new UserActions(ws, deliverer, opts.appMentionEvents ?? false);

  const slack: LocalSlack = {
    url,
    apiUrl: `${url}/api/`,
    async close() {
      deliverer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    postAsUser: (u, c, t, o) => people.postAsUser(u, c, t, o),
    sendDirectMessage: (u, t, o) => people.sendDirectMessage(u, t, o),
    postBotLikeMessage: (c, t, o) => people.postBotLikeMessage(c, t, o),
    editMessage: (u, c, ts, t, o) => people.editMessage(u, c, ts, t, o),
    redeliver: (id, o) => people.redeliver(id, o),
    openHome: (u, o) => people.openHome(u, o),
    click: (u, c, ts, a, o) => interactions.click(u, c, ts, a, o),
    submitView: (u, v, values, o) => interactions.submitView(u, v, values, o?.via),
    closeView: (u, v, o) => interactions.closeView(u, v, o?.via),
    messages(channel, o) {
      const c = ws.resolveChannel(channel);
      if (!c) throw new Error(`local-slack: unknown channel ${channel}`);
      return o?.thread_ts ? ws.thread(c.id, o.thread_ts) : ws.topLevel(c.id);
    },
    ephemerals: (userId) => ws.ephemeral.filter((m) => m.ephemeral_for === userId),
    openViews: (userId) => ws.modalStack(userId),
    homeView(userId) {
      const id = ws.homes.get(userId);
      return id ? ws.views.get(id) : undefined;
    },
    threadStatus(channel, threadTs) {
      const c = ws.resolveChannel(channel);
      return c ? ws.statuses.get(`${c.id}:${threadTs}`) : undefined;
    },
    apiCalls: () => [...ws.calls],
    deliveries: () => [...deliverer.log],
    async waitFor<T>(fn: () => T | undefined | false | null, timeoutMs = 5000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = fn();
        if (v) return v;
        if (Date.now() > deadline) throw new Error(`local-slack: waitFor timed out after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 15));
      }
    },
  };

  const consoleRoute = consoleRoutes(slack, ws);
  const workersRoute = workerRoutes({
    app: { botToken: opts.botToken, signingSecret: opts.signingSecret, botUserId: opts.botUserId, botId: opts.botId },
    add: (u) => deliverer.addUrl(u),
    remove: (u) => deliverer.removeUrl(u),
  });
  // Slack's limits unless switched off: the app's 429 handling is only proven against a workspace that limits.
  const limiter = opts.rateLimits === false ? undefined : new RateLimiter(opts.rateLimits ?? {});
  const apiCtx = { ws, url, triggerTtlMs, logger, limiter };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const u = new URL(req.url ?? '/', url);
      const path = u.pathname;
      const method = req.method ?? 'GET';
      const body = method === 'POST' || method === 'DELETE' ? await readBody(req) : '';
      if (path.startsWith('/api/')) {
        const { result, retryAfter } = handleApiRequest(path.slice(5), req.headers, body, u.search.slice(1), apiCtx);
        if (retryAfter !== undefined) {
          res.writeHead(429, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': String(retryAfter) });
          return res.end(JSON.stringify(result));
        }
        return send(res, { status: 200, body: JSON.stringify(result) });
      }
      if (method === 'POST' && path.startsWith('/response/'))
        return send(res, handleResponseUrl(ws, path.slice(10), body));
      if (method === 'GET' && path === '/')
        return send(res, { status: 200, body: await readFile(CONSOLE_HTML, 'utf8') }, 'text/html; charset=utf-8');
      if (path === '/favicon.ico') {
        res.writeHead(204);
        return res.end();
      }
      const permalink = path.match(/^\/archives\/([A-Z0-9]+)\/p(\d{10})(\d{6})$/);
      if (method === 'GET' && permalink) {
        res.writeHead(302, { Location: `/#${permalink[1]}/${permalink[2]}.${permalink[3]}` });
        return res.end();
      }
      const reply = workersRoute(method, path, body) ?? (await consoleRoute(method, path, u.searchParams, body));
      if (reply) return send(res, reply);
      send(res, { status: 404, body: JSON.stringify({ ok: false, error: 'not_found' }) });
    })().catch((e: unknown) => {
      logger.error('local-slack: request failed', e);
      if (!res.headersSent) send(res, { status: 500, body: JSON.stringify({ ok: false, error: 'internal_error' }) });
      else res.end();
    });
  });

  logger.info(`local-slack: listening on ${url} (console at ${url}/)`);
  return slack;
}
