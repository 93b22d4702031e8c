import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { customerHome, managerHome, type HomeApproval } from '../../blocks/home.js';
import type { BotDeps } from '../../deps.js';

const PENDING_SHOWN = 25;

const SELECT = `SELECT a.id, a.tool, a.status, a.customer_id, a.created_at, a.expires_at, a.approver, a.decided_at, a.decision_reason,
                       c.name AS customer_name
                FROM approvals a LEFT JOIN customers c ON c.id = a.customer_id`;

/** Draw the App Home of one user from Postgres: the managers' queue, or the customer's page. */
export async function publishHome(deps: BotDeps, client: WebClient, userId: string): Promise<void> {
  if (await deps.managers.isManager(userId)) {
    const [pending, total, decided, linked] = await Promise.all([
      deps.pool.query<HomeApproval>(`${SELECT} WHERE a.status = 'pending' ORDER BY a.created_at ASC, a.id LIMIT ${PENDING_SHOWN}`),
      deps.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM approvals WHERE status = 'pending'`),
      deps.pool.query<HomeApproval>(
        `${SELECT} WHERE a.approver IS NOT NULL AND a.decided_at IS NOT NULL ORDER BY a.decided_at DESC, a.id LIMIT 10`,
      ),
      deps.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM slack_identities`),
    ]);
    await client.views.publish({
      user_id: userId,
      view: managerHome({
        pending: pending.rows,
        pendingTotal: total.rows[0]?.n ?? 0,
        decided: decided.rows,
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
  await client.views.publish({ user_id: userId, view: customerHome({ linkedName: linked.rows[0]?.name ?? null, supportChannel: deps.channels.support }) });
}

export function register(app: App, deps: BotDeps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab && event.tab !== 'home') return;
    await publishHome(deps, client, event.user);
  });
}
