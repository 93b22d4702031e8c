import type { WebClient } from '@slack/web-api';
import type { DeliveryPort } from '../agent/delivery-port.js';
import { OUTCOME_WAIT_MS } from './cards.js';
import { isSharedChannel, isSlackThread, slackTargetOf } from './conversations.js';
import type { BotDeps } from './deps.js';
import { recoverInbox } from './inbox.js';
import { handleCustomerMessage } from './listeners/messages/customer-message.js';
import { postConversationReplies } from './replies.js';

/**
 * The agent's way into Slack, on whichever worker made the change: replies go into the
 * conversation's thread (personal ones, in a channel others read, to the customer by DM with a
 * note in the thread), approval changes wake the card sender (bot/cards.ts), and every sweep finishes
 * customer messages whose worker died and sends cards left due. A conversation that is not a Slack
 * thread (the HTTP API) has nothing to post: its replies are delivered by being stored.
 */
export function slackDelivery(deps: BotDeps, client: () => WebClient): DeliveryPort {
  return {
    // The ledger's change recorded the card's redraw (the card outbox): send it, without waiting;
    // an approval's card waits a moment for the outcome its write is about to have.
    approvalsChanged: async (approvals) =>
      deps.cards.kick(approvals.every((a) => a.status === 'approved') ? OUTCOME_WAIT_MS : undefined),
    deliver: async (threadId, replies) => {
      const target = await slackTargetOf(deps.pool, threadId);
      if (!target) return;
      const shared = isSharedChannel(target.channel, deps.channels.private ?? []);
      const { direct } = await postConversationReplies(client(), { ...target, shared }, replies);
      deps.logger.info(
        { thread_id: threadId, count: replies.length, direct, shared },
        direct ? 'replies delivered: personal ones by direct message' : 'replies delivered to the slack thread',
      );
    },
    storesOnly: (threadId) => !isSlackThread(threadId),
    catchUp: async () => {
      deps.cards.kick();
      await recoverInbox(deps.pool, deps.logger, (event, eventId) =>
        handleCustomerMessage(deps, client(), event as unknown as Parameters<typeof handleCustomerMessage>[2], eventId),
      );
    },
  };
}
