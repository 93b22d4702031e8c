import type { App, ViewSubmitAction } from '@slack/bolt';
import { LINK_CUSTOMER_BLOCK, LINK_USER_BLOCK } from '../../blocks/home.js';
import { noticeModal } from '../../blocks/modals.js';
import { submitted, type SubmittedState } from '../../blocks/schema-form.js';
import { NOT_A_MANAGER, requireManager } from '../../decisions.js';
import type { BotDeps } from '../../deps.js';
import { VIEWS } from '../../ids.js';
import { SLACK_USER_ID, escapeText } from '../../escape.js';
import { linkSlackUser } from '../../identity.js';
import { publishHome } from '../events/app-home-opened.js';

/** "U01ABC", "<@U01ABC>" or "<@U01ABC|name>" → "U01ABC". */
export function parseUserRef(raw: string | undefined): string | undefined {
  const m = /^\s*(?:<@)?([UW][A-Z0-9]{2,20})(?:\|[^>]*)?>?\s*$/.exec(raw ?? '');
  return m && SLACK_USER_ID.test(m[1]!) ? m[1] : undefined;
}

/** A manager links a Slack user to a customer record: the only way a Slack user becomes someone. */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(VIEWS.link, async ({ ack, body, view, client }) => {
    const manager = body.user.id;
    if (!(await requireManager(deps, manager, { action: 'link_submit' }))) {
      await ack({ response_action: 'update', view: noticeModal('Not allowed', NOT_A_MANAGER) });
      return;
    }
    const state = view.state.values as unknown as SubmittedState;
    const slackUserId = parseUserRef(submitted(state, LINK_USER_BLOCK));
    const customerId = submitted(state, LINK_CUSTOMER_BLOCK)?.trim();
    const errors: Record<string, string> = {};
    if (!slackUserId) errors[LINK_USER_BLOCK] = 'Enter a Slack user id like U01CUS0001 (or pick a person).';
    if (!customerId) errors[LINK_CUSTOMER_BLOCK] = 'Choose a customer.';
    if (slackUserId && !errors[LINK_USER_BLOCK]) {
      const info = await client.users.info({ user: slackUserId }).catch(() => undefined);
      if (!info?.user) errors[LINK_USER_BLOCK] = `There is no Slack user ${slackUserId} in this workspace.`;
      else if (info.user.is_bot) errors[LINK_USER_BLOCK] = 'That is a bot, not a person.';
    }
    if (Object.keys(errors).length) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    const linked = await linkSlackUser(deps.pool, deps.clock, {
      slackUserId: slackUserId!,
      customerId: customerId!,
      linkedBy: `slack:${manager}`,
    });
    if (!linked) {
      await ack({
        response_action: 'errors',
        errors: { [LINK_CUSTOMER_BLOCK]: `There is no customer ${customerId}.` },
      });
      return;
    }
    deps.logger.info(
      {
        slack_user: slackUserId,
        customer_id: linked.customer.id,
        previous: linked.previousCustomerId,
        linked_by: manager,
      },
      'slack user linked',
    );
    const previously =
      linked.previousCustomerId && linked.previousCustomerId !== linked.customer.id
        ? ` (was \`${escapeText(linked.previousCustomerId)}\`)`
        : '';
    await ack({
      response_action: 'update',
      view: noticeModal(
        'Linked',
        `<@${slackUserId}> is now linked to *${escapeText(linked.customer.name)}* ` +
          `(\`${escapeText(linked.customer.id)}\`)${previously}.`,
      ),
    });
    await publishHome(deps, client, manager);
  });
}
