import type { App, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { LINK_CONFIRM_BLOCK, LINK_CUSTOMER_BLOCK, LINK_USER_BLOCK, RELINK } from '../../blocks/home.js';
import { noticeModal } from '../../blocks/modals.js';
import { submitted, type SubmittedState } from '../../blocks/schema-form.js';
import { NOT_A_MANAGER, requireManager } from '../../decisions.js';
import type { BotDeps } from '../../deps.js';
import { VIEWS } from '../../ids.js';
import { SLACK_USER_ID, escapeText } from '../../escape.js';
import { linkSlackUser, type LinkConflicts } from '../../identity.js';
import { publishHome } from '../events/app-home-opened.js';

/** "U01ABC", "<@U01ABC>" or "<@U01ABC|name>" → "U01ABC". */
export function parseUserRef(raw: string | undefined): string | undefined {
  const m = /^\s*(?:<@)?([UW][A-Z0-9]{2,20})(?:\|[^>]*)?>?\s*$/.exec(raw ?? '');
  return m && SLACK_USER_ID.test(m[1]!) ? m[1] : undefined;
}

/** "Dana Whitfield" for a user id, or the id when Slack can't say. */
async function nameOf(client: WebClient, userId: string): Promise<string> {
  const info = await client.users.info({ user: userId }).catch(() => undefined);
  return info?.user?.real_name || info?.user?.name || userId;
}

/** The inline warnings for links that exist already (errors show as plain text: names, not mentions). */
async function conflictErrors(
  client: WebClient,
  p: { person: string; customer: { id: string; name: string }; conflicts: LinkConflicts },
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const { userLinkedTo, customerLinkedTo } = p.conflicts;
  if (userLinkedTo) {
    errors[LINK_USER_BLOCK] =
      `${p.person} is already linked to ${userLinkedTo.name} (${userLinkedTo.id}). ` +
      `Relinking moves them to ${p.customer.name} (${p.customer.id}): the agent then acts for them as that customer.`;
  }
  if (customerLinkedTo.length) {
    const names = await Promise.all(customerLinkedTo.slice(0, 3).map((id) => nameOf(client, id)));
    const more = customerLinkedTo.length > 3 ? ` and ${customerLinkedTo.length - 3} more` : '';
    errors[LINK_CUSTOMER_BLOCK] =
      `${p.customer.name} (${p.customer.id}) is already linked to ${names.join(', ')}${more}. ` +
      `Relinking adds ${p.person} as well; the existing link stays.`;
  }
  errors[LINK_CONFIRM_BLOCK] = 'Tick "Yes, relink" and submit again to go ahead, or change the person or customer.';
  return errors;
}

/**
 * A manager links a Slack user to a customer record: the only way a Slack user becomes someone.
 * A link that exists already (the person's, or the customer's to someone else) is shown inline and
 * changed only when the manager ticks "Yes, relink" and submits again: never silently.
 */
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
    const confirmed = (state[LINK_CONFIRM_BLOCK]?.value?.selected_options ?? []).some((o) => o.value === RELINK);
    const errors: Record<string, string> = {};
    if (!slackUserId) errors[LINK_USER_BLOCK] = 'Enter a Slack user id like U01CUS0001 (or pick a person).';
    if (!customerId) errors[LINK_CUSTOMER_BLOCK] = 'Choose a customer.';
    let person = slackUserId ?? '';
    if (slackUserId && !errors[LINK_USER_BLOCK]) {
      const info = await client.users.info({ user: slackUserId }).catch(() => undefined);
      person = info?.user?.real_name || info?.user?.name || slackUserId;
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
      confirmed,
    });
    if (linked.status === 'no_customer') {
      await ack({
        response_action: 'errors',
        errors: { [LINK_CUSTOMER_BLOCK]: `There is no customer ${customerId}.` },
      });
      return;
    }
    if (linked.status === 'needs_confirmation') {
      deps.logger.info(
        {
          slack_user: slackUserId,
          customer_id: linked.customer.id,
          linked_to: linked.conflicts.userLinkedTo?.id,
          customer_linked_users: linked.conflicts.customerLinkedTo.length,
          manager,
        },
        'slack link needs confirmation',
      );
      await ack({
        response_action: 'errors',
        errors: await conflictErrors(client, { person, customer: linked.customer, conflicts: linked.conflicts }),
      });
      return;
    }
    if (linked.status === 'unchanged') {
      await ack({
        response_action: 'update',
        view: noticeModal(
          'Already linked',
          `<@${slackUserId}> is already linked to *${escapeText(linked.customer.name)}* ` +
            `(\`${escapeText(linked.customer.id)}\`). Nothing was changed.`,
        ),
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
