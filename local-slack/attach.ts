// Joining a workspace another process on this machine already runs (a second `npm start` or worker):
// one workspace, so a card one worker posts is one any worker can update. Not part of Slack's API:
// these routes stand in for "both workers are configured with the same app".
import type { HttpReply } from './response-url.js';

export const WORKERS_PATH = '/local/workers';

export interface AttachedWorkspace {
  url: string;
  apiUrl: string;
  botToken: string;
  signingSecret: string;
  botUserId: string;
  botId: string;
  /** Stop receiving events and interactions (the workspace may already be gone). */
  detach(): Promise<void>;
}

/** What the workspace answers a worker that joins: the app it is, the same for every worker. */
export interface WorkerRegistry {
  app: { botToken: string; signingSecret: string; botUserId: string; botId: string };
  add(eventsUrl: string): number;
  remove(eventsUrl: string): void;
}

const json = (status: number, body: unknown): HttpReply => ({ status, body: JSON.stringify(body) });

function eventsUrlOf(raw: string): string | undefined {
  try {
    const v = (JSON.parse(raw || '{}') as { events_url?: unknown }).events_url;
    if (typeof v !== 'string') return undefined;
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The workspace side. The server listens on loopback only, like the console that can act as anyone. */
export function workerRoutes(reg: WorkerRegistry) {
  return (method: string, path: string, raw: string): HttpReply | undefined => {
    if (path !== WORKERS_PATH) return undefined;
    const eventsUrl = eventsUrlOf(raw);
    if (!eventsUrl) return json(400, { ok: false, error: 'invalid_events_url' });
    if (method === 'POST') {
      const via = reg.add(eventsUrl);
      return json(200, {
        ok: true,
        via,
        bot_token: reg.app.botToken,
        signing_secret: reg.app.signingSecret,
        bot_user_id: reg.app.botUserId,
        bot_id: reg.app.botId,
      });
    }
    if (method === 'DELETE') {
      reg.remove(eventsUrl);
      return json(200, { ok: true });
    }
    return json(405, { ok: false, error: 'method_not_allowed' });
  };
}

/** The worker side: join the workspace on this port; undefined when none runs there. */
export async function attachToLocalSlack(port: number, eventsUrl: string): Promise<AttachedWorkspace | undefined> {
  const url = `http://127.0.0.1:${port}`;
  const call = (method: string) =>
    fetch(`${url}${WORKERS_PATH}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ events_url: eventsUrl }),
      signal: AbortSignal.timeout(3000),
    });
  const body = await call('POST')
    .then(async (r) => (r.ok ? ((await r.json()) as Record<string, unknown>) : undefined))
    .catch(() => undefined);
  if (!body?.ok || typeof body.bot_token !== 'string' || typeof body.signing_secret !== 'string') return undefined;
  return {
    url,
    apiUrl: `${url}/api/`,
    botToken: body.bot_token,
    signingSecret: body.signing_secret,
    botUserId: String(body.bot_user_id),
    botId: String(body.bot_id),
    async detach() {
      await call('DELETE').catch(() => undefined);
    },
  };
}
