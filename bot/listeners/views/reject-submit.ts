import type { App, ViewSubmitAction } from '@slack/bolt';
import { REASON_BLOCK, noticeModal, parseMetadata } from '../../blocks/modals.js';
import { submitted, type SubmittedState } from '../../blocks/schema-form.js';
import { NOT_FOUND, decideAndReport, guardDecision, refuseInModal } from '../../decisions.js';
import type { BotDeps } from '../../deps.js';
import { VIEWS } from '../../ids.js';

/** Reject with a reason (required: the customer reads it). */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(VIEWS.reject, async ({ ack, body, view, client }) => {
    const user = body.user.id;
    const meta = parseMetadata(view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'update', view: noticeModal('Reject request', NOT_FOUND) });
      return;
    }
    const decision = { user, approvalId: meta.approval_id, action: 'reject_submit' };
    const approval = await guardDecision(deps, decision, refuseInModal(ack, 'Reject request'));
    if (!approval) return;
    const reason = submitted(view.state.values as unknown as SubmittedState, REASON_BLOCK)?.trim();
    if (!reason) {
      await ack({
        response_action: 'errors',
        errors: { [REASON_BLOCK]: 'Please give a reason the customer can read.' },
      });
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
