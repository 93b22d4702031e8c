// JSON routes behind the browser console: a state snapshot for one user and the actions they can take.
import type { HttpReply } from './response-url.js';
import type { LocalSlack } from './types.js';
import type { Workspace } from './workspace.js';

type Body = Record<string, unknown>;

const json = (status: number, body: unknown): HttpReply => ({ status, body: JSON.stringify(body) });

const need = (b: Body, key: string): string => {
  const v = b[key];
  if (typeof v !== 'string' || !v) throw new Error(`missing ${key}`);
  return v;
};

const opt = (b: Body, key: string): string | undefined =>
  typeof b[key] === 'string' && b[key] ? (b[key] as string) : undefined;

function snapshot(ws: Workspace, slack: LocalSlack, userId: string | undefined) {
  const channels = [...ws.channels.values()].filter((c) => !c.is_im || c.user === userId);
  const statuses: Record<string, string> = {};
  for (const [k, v] of ws.statuses) statuses[k] = v;
  return {
    botUserId: ws.id.botUserId,
    users: [...ws.users.values()].filter((u) => u.id !== ws.id.botUserId),
    channels: channels.map((c) => ({ id: c.id, name: c.name, is_im: c.is_im })),
    messages: Object.fromEntries(channels.map((c) => [c.id, ws.allMessages(c.id)])),
    ephemerals: userId ? slack.ephemerals(userId) : [],
    modals: userId ? slack.openViews(userId) : [],
    home: userId ? (slack.homeView(userId) ?? null) : null,
    statuses,
  };
}

export function consoleRoutes(slack: LocalSlack, ws: Workspace) {
  const actions: Record<string, (b: Body) => Promise<unknown>> = {
    post: (b) =>
      slack.postAsUser(need(b, 'user'), need(b, 'channel'), need(b, 'text'), { thread_ts: opt(b, 'thread_ts') }),
    click: (b) =>
      slack.click(need(b, 'user'), need(b, 'channel'), typeof b.ts === 'string' ? b.ts : '', need(b, 'action_id'), {
        value: opt(b, 'value'),
        blockId: opt(b, 'block_id'),
      }),
    submit: (b) =>
      slack.submitView(
        need(b, 'user'),
        need(b, 'view_id'),
        (b.values ?? {}) as Record<string, Record<string, unknown>>,
      ),
    close: (b) => slack.closeView(need(b, 'user'), need(b, 'view_id')),
    home: (b) => slack.openHome(need(b, 'user')),
  };

  return async (method: string, path: string, query: URLSearchParams, raw: string): Promise<HttpReply | undefined> => {
    if (method === 'GET' && path === '/console/api/state')
      return json(200, snapshot(ws, slack, query.get('user') ?? undefined));
    const name = path.startsWith('/console/api/') ? path.slice('/console/api/'.length) : '';
    const action = actions[name];
    if (method !== 'POST' || !action) return undefined;
    try {
      const body = JSON.parse(raw || '{}') as Body;
      return json(200, { ok: true, result: await action(body) });
    } catch (e) {
      return json(400, { ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  };
}
