import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { managerQueue } from '../../../schema/approvals/store.js';
import { customerHome, managerHome } from '../../blocks/home.js';
import type { BotDeps } from '../../deps.js';

const PENDING_SHOWN = 25;

/** Draw the App Home of one user from Postgres: the managers' queue, or the customer's page. */
export async function publishHome(deps: BotDeps, client: WebClient, userId: string): Promise<void> {
  if (await deps.managers.isManager(userId)) {
    const [queue, linked] = await Promise.all([
      managerQueue(deps.pool, PENDING_SHOWN),
      deps.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM slack_identities`),
    ]);
    await client.views.publish({
      user_id: userId,
      view: managerHome({
        pending: queue.pending,
        pendingTotal: queue.pendingTotal,
        decided: queue.decided,
        now: deps.clock.now(),
        timeZone: deps.timeZone,
        linkedUsers: linked.rows[0]?.n ?? 0,
      }),
    });
    return;
  }
  const linked = await deps.pool.query<{ name: string }>(
    `SELECT c.name FROM slack_identities s JOIN customers c ON c.id = s.customer_id WHERE s.slack_user_id = $1`,
    [userId],
  );
  await client.views.publish({
    user_id: userId,
    view: customerHome({ linkedName: linked.rows[0]?.name ?? null, supportChannel: deps.channels.support }),
  });
}

export function register(app: App, deps: BotDeps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab && event.tab !== 'home') return;
    await publishHome(deps, client, event.user);
  });
}
