import { randomBytes } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import { DEMO_MANAGERS, DEMO_SLACK_USERS } from '../schema/demo.js';
// Types only: the workspace's modules are imported when one is started or joined (local mode), so a
// worker on a real Slack, or one that another process's workspace serves, never loads them.
import type { AttachedWorkspace, LocalSlack, LocalSlackTiming, RateLimitOptions } from '../local-slack/index.js';
import type { SlackConnection } from './app.js';
import { BUSINESS } from '../schema/business/profile.js';

/** The demo workspace's fixed ids (channel names #support and #managers). */
export const LOCAL_IDS = {
  botUserId: 'U01BRIGHTWL',
  botId: 'B01BRIGHTWL',
  support: 'C01SUPPORT0',
  managers: 'C01MANAGERS',
} as const;

/**
 * A connection to a local workspace: generated signing secret and bot token, the demo channels,
 * the demo managers. `apiUrl` is the workspace's Web API (set it once its port is known).
 */
export function localConnection(opts: { apiUrl?: string; managerIds?: readonly string[] } = {}): SlackConnection {
  return {
    mode: 'local',
    botToken: `xoxb-local-${randomBytes(12).toString('hex')}`,
    signingSecret: randomBytes(24).toString('hex'),
    botUserId: LOCAL_IDS.botUserId,
    botId: LOCAL_IDS.botId,
    apiUrl: opts.apiUrl,
    supportChannel: LOCAL_IDS.support,
    managersChannel: LOCAL_IDS.managers,
    managerIds: opts.managerIds?.length ? opts.managerIds : DEMO_MANAGERS.map((m) => m.id),
  };
}

/**
 * Start the local Slack workspace (Web API, signed event delivery, browser console at `/`) for
 * a connection, delivering to `eventsUrls` (one per worker; round-robin like a load balancer).
 */
export async function startLocalWorkspace(
  connection: SlackConnection,
  opts: {
    port: number;
    eventsUrls: string[];
    logger?: Logger;
    timing?: LocalSlackTiming;
    /** Slack's rate limits by default, as `npm start` runs them; false: none. */
    rateLimits?: RateLimitOptions | false;
  },
): Promise<LocalSlack> {
  const log = opts.logger?.child({ component: 'local-slack' });
  const { startLocalSlack } = await import('../local-slack/index.js');
  return startLocalSlack({
    port: opts.port,
    signingSecret: connection.signingSecret,
    botToken: connection.botToken,
    botUserId: connection.botUserId!,
    botId: connection.botId!,
    eventsUrls: opts.eventsUrls,
    users: [
      // The console shows who each person is to the app: configured managers approve, customers are linked
      // to a record, anyone else is a guest the bot does not know.
      ...DEMO_SLACK_USERS.map((u) => ({
        id: u.id,
        name: u.name,
        real_name: u.real_name,
        role: connection.managerIds.includes(u.id) ? 'manager' : u.role === 'customer' ? 'customer' : 'unlinked guest',
      })),
      {
        id: connection.botUserId!,
        name: BUSINESS.shortName.toLowerCase(),
        real_name: `${BUSINESS.shortName} Support`,
        is_bot: true,
      },
    ],
    channels: [
      { id: connection.supportChannel!, name: 'support' },
      { id: connection.managersChannel, name: 'managers' },
    ],
    userGroups: [{ id: 'S01MANAGERS', handle: 'managers', users: [...connection.managerIds] }],
    timing: opts.timing,
    rateLimits: opts.rateLimits,
    logger: log
      ? {
          info: (...a: unknown[]) => log.debug(a.map(String).join(' ')),
          warn: (...a: unknown[]) => log.warn(a.map(String).join(' ')),
          error: (...a: unknown[]) => log.error(a.map(String).join(' ')),
        }
      : undefined,
  });
}

/** Local mode's Web API URL on a port chosen before the workspace starts (the bot needs it first). */
export const localApiUrl = (port: number) => `http://127.0.0.1:${port}/api/`;

/**
 * Join the local workspace another process on this machine runs on `port` (a second `npm start` or
 * worker), as the same app: its token and signing secret replace the connection's generated ones, and
 * `eventsUrl` joins its round-robin. Undefined when what holds the port is no local workspace.
 */
export async function joinLocalWorkspace(
  connection: SlackConnection,
  opts: { port: number; eventsUrl: string },
): Promise<{ connection: SlackConnection; workspace: AttachedWorkspace } | undefined> {
  const { attachToLocalSlack } = await import('../local-slack/index.js');
  const workspace = await attachToLocalSlack(opts.port, opts.eventsUrl);
  if (!workspace) return undefined;
  return {
    workspace,
    connection: {
      ...connection,
      botToken: workspace.botToken,
      signingSecret: workspace.signingSecret,
      botUserId: workspace.botUserId,
      botId: workspace.botId,
      apiUrl: workspace.apiUrl,
    },
  };
}
