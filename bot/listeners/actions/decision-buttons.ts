import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { editModal, rejectModal } from '../../blocks/modals.js';
import { loadCardContext } from '../../cards.js';
import { decideAndReport, guardDecision, refusePrivately } from '../../decisions.js';
import type { BotDeps } from '../../deps.js';
import { ACTIONS } from '../../ids.js';

type Click = BlockAction<ButtonAction>;

/**
 * Approve / Edit / Reject on a card. Each acks at once (Slack wants it within 3 s), then checks
 * the clicker against the managers set and the approval against the ledger. Approve decides
 * right here; Edit and Reject open a modal (their trigger_id is good for 3 s).
 */
export function register(app: App, deps: BotDeps): void {
  // The approval a card button is about: its value, then Postgres. Nothing from memory.
  const guard = async (body: Click, client: WebClient, kind: string) => {
    const user = body.user.id;
    const channel = body.channel?.id ?? deps.channels.managers;
    const approvalId = body.actions[0]?.value;
    const approval = await guardDecision(
      deps,
      { user, approvalId, action: kind },
      refusePrivately(client, { channel, user }),
    );
    return approval && { approval, user, channel };
  };

  app.action<Click>(ACTIONS.approve, async ({ ack, body, client }) => {
    await ack();
    const ok = await guard(body, client, 'approve');
    if (!ok) return;
    await decideAndReport(deps, client, {
      approvalId: ok.approval.id,
      user: ok.user,
      decision: 'approve',
      channel: ok.channel,
    });
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
