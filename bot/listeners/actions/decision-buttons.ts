import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { editModal, rejectModal } from '../../blocks/modals.js';
import { loadCardContext } from '../../cards.js';
import { NOT_A_MANAGER, NOT_FOUND, decideAndReport, isPastExpiry, notPendingText, requireManager, settleStale } from '../../decisions.js';
import { ACTIONS, type BotDeps } from '../../deps.js';
import { tellPrivately } from '../../replies.js';

type Click = BlockAction<ButtonAction>;

/** The approval a card button is about: its value, then Postgres. Nothing from memory. */
async function clickedApproval(deps: BotDeps, body: Click) {
  const value = body.actions[0]?.value;
  return typeof value === 'string' && value.length <= 64 ? deps.agent.ledger.get(value) : undefined;
}

/**
 * Approve / Edit / Reject on a card. Each acks at once (Slack wants it within 3 s), then checks
 * the clicker against the managers set and the approval against the ledger. Approve decides
 * right here; Edit and Reject open a modal (their trigger_id is good for 3 s).
 */
export function register(app: App, deps: BotDeps): void {
  const guard = async (body: Click, client: WebClient, kind: string) => {
    const user = body.user.id;
    const channel = body.channel?.id ?? deps.channels.managers;
    const value = body.actions[0]?.value;
    if (!(await requireManager(deps, user, { action: kind, approval_id: value }))) {
      await tellPrivately(client, { channel, user, text: NOT_A_MANAGER });
      return undefined;
    }
    const approval = await clickedApproval(deps, body);
    if (!approval) {
      deps.logger.warn({ user, action: kind, value: String(value).slice(0, 64) }, 'click on an unknown approval');
      await tellPrivately(client, { channel, user, text: NOT_FOUND });
      return undefined;
    }
    if (approval.status !== 'pending' || isPastExpiry(deps, approval)) {
      await tellPrivately(client, { channel, user, text: notPendingText(approval, deps.timeZone) });
      await settleStale(deps, approval);
      return undefined;
    }
    return { approval, user, channel };
  };

  app.action<Click>(ACTIONS.approve, async ({ ack, body, client }) => {
    await ack();
    const ok = await guard(body, client, 'approve');
    if (!ok) return;
    await decideAndReport(deps, client, { approvalId: ok.approval.id, user: ok.user, decision: 'approve', channel: ok.channel });
  });

  app.action<Click>(ACTIONS.edit, async ({ ack, body, client }) => {
    await ack();
    const ok = await guard(body, client, 'edit');
    if (!ok) return;
    const ctx = await loadCardContext(deps.pool, ok.approval, deps.timeZone);
    await client.views.open({ trigger_id: body.trigger_id, view: editModal(ok.approval, ctx) });
  });

  app.action<Click>(ACTIONS.reject, async ({ ack, body, client }) => {
    await ack();
    const ok = await guard(body, client, 'reject');
    if (!ok) return;
    const ctx = await loadCardContext(deps.pool, ok.approval, deps.timeZone);
    await client.views.open({ trigger_id: body.trigger_id, view: rejectModal(ok.approval, ctx) });
  });
}
