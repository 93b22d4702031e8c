import type { WebClient } from '@slack/web-api';
import type { DeliveryPort } from '../agent/delivery-port.js';
import { slackTargetOf } from './conversations.js';
import type { BotDeps } from './deps.js';
import { recoverInbox } from './inbox.js';
import { handleCustomerMessage } from './listeners/messages/customer-message.js';
import { postReplies } from './replies.js';

/**
 * The agent's way into Slack, on whichever worker made the change: replies go into the
 * conversation's thread, approval changes redraw their cards, and every sweep finishes customer
 * messages whose worker died. A conversation that is not a Slack thread (the HTTP API) has
 * nothing to post: its replies are delivered by being stored.
 */
export function slackDelivery(deps: BotDeps, client: () => WebClient): DeliveryPort {
  return {
    approvalsChanged: (approvals) => deps.cards.sync(approvals),
    deliver: async (threadId, replies) => {
      const target = await slackTargetOf(deps.pool, threadId);
      if (!target) return;
      await postReplies(client(), target, replies);
      deps.logger.info({ thread_id: threadId, count: replies.length }, 'replies delivered to the slack thread');
    },
    catchUp: async () => {
      await recoverInbox(deps.pool, deps.logger, (event, eventId) =>
        handleCustomerMessage(deps, client(), event as unknown as Parameters<typeof handleCustomerMessage>[2], eventId),
      );
    },
  };
}
