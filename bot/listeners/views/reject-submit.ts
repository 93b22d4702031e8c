import type { App, ViewSubmitAction } from '@slack/bolt';
import { REASON_BLOCK, noticeModal, parseMetadata } from '../../blocks/modals.js';
import { submitted, type SubmittedState } from '../../blocks/schema-form.js';
import { NOT_A_MANAGER, NOT_FOUND, decideAndReport, isPastExpiry, notPendingText, requireManager, settleStale } from '../../decisions.js';
import { VIEWS, type BotDeps } from '../../deps.js';

/** Reject with a reason (required: the customer reads it). */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(VIEWS.reject, async ({ ack, body, view, client }) => {
    const user = body.user.id;
    const meta = parseMetadata(view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'update', view: noticeModal('Reject request', NOT_FOUND) });
      return;
    }
    if (!(await requireManager(deps, user, { action: 'reject_submit', approval_id: meta.approval_id }))) {
      await ack({ response_action: 'update', view: noticeModal('Not allowed', NOT_A_MANAGER) });
      return;
    }
    const reason = submitted(view.state.values as unknown as SubmittedState, REASON_BLOCK)?.trim();
    if (!reason) {
      await ack({ response_action: 'errors', errors: { [REASON_BLOCK]: 'Please give a reason the customer can read.' } });
      return;
    }
    const approval = await deps.agent.ledger.get(meta.approval_id);
    if (!approval) {
      await ack({ response_action: 'update', view: noticeModal('Reject request', NOT_FOUND) });
      return;
    }
    if (approval.status !== 'pending' || isPastExpiry(deps, approval)) {
      await ack({ response_action: 'update', view: noticeModal('Too late', notPendingText(approval, deps.timeZone)) });
      await settleStale(deps, approval);
      return;
    }
    await ack();
    await decideAndReport(deps, client, {
      approvalId: approval.id,
      user,
      decision: 'reject',
      reason,
      channel: approval.card_channel ?? deps.channels.managers,
    });
  });
}
