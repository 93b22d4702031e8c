import type { App } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { AgentError } from '../../../agent/service.js';
import { threadIdFor } from '../../conversations.js';
import type { BotDeps } from '../../deps.js';
import { customerForSlackUser } from '../../identity.js';
import { postReplies } from '../../replies.js';
import { markEventDone } from '../../inbox.js';
import { ATTACHMENT_NOTE, ATTACHMENT_ONLY, isPersonMessage } from '../../message-kinds.js';

/** The fields of a `message` event we use (see message-kinds.ts for which subtypes are people). */
interface IncomingMessage {
  type: 'message';
  subtype?: string;
  files?: unknown[];
  bot_id?: string;
  user?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  channel: string;
  channel_type?: string;
}

/** The reaction shown on a customer's message while a slow turn runs (reactions:write works in any channel). */
export const WORKING_REACTION = 'hourglass_flowing_sand';

export const APOLOGY =
  'Sorry, something went wrong on our side while I was handling your message, and nothing was changed. ' +
  'Please try again in a moment; if it keeps happening, our team is around in this channel.';
export const OTHER_CUSTOMER =
  "This thread is another customer's conversation, so I can't continue it for you. " +
  "Please start a new message in the channel (not in this thread) and I'll help you there.";

/** Is this a message from a person that the agent should answer? */
export function isCustomerMessage(m: IncomingMessage, deps: BotDeps, botUserId: string | undefined): boolean {
  // edits, joins, bots, ourselves
  if (!isPersonMessage(m) || !m.user || m.user === botUserId) return false;
  if (m.channel === deps.channels.managers) return false;
  if (m.channel_type === 'im') return true;
  if (deps.channels.support) return m.channel === deps.channels.support;
  return m.channel_type === 'channel' || m.channel_type === 'group';
}

/**
 * A customer's message in the support channel (top-level or in a thread) or a DM → the agent.
 * The event was already stored, de-duplicated and acked (see receiver.ts); here: who is it (stored link
 * only), run the turn, reply in the thread. Every path ends in a visible reply.
 */
export function register(app: App, deps: BotDeps): void {
  app.event('message', async ({ event, body, client, context }) => {
    const m = event as unknown as IncomingMessage;
    const eventId = (body as { event_id?: string }).event_id;
    if (!isCustomerMessage(m, deps, context.botUserId)) return markEventDone(deps.pool, eventId);
    await handleCustomerMessage(deps, client, m, eventId);
  });
}

/**
 * `eventId` is the delivery's key: the agent recognises a repeat (inbox recovery after a crash)
 * and the inbox row is marked done once the customer has a visible answer.
 */
export async function handleCustomerMessage(
  deps: BotDeps,
  client: WebClient,
  m: IncomingMessage,
  eventId?: string,
): Promise<void> {
  const user = m.user!;
  const threadTs = m.thread_ts ?? m.ts;
  const threadId = threadIdFor(m.channel, threadTs);
  const log = deps.logger.child({ thread_id: threadId, slack_user: user });
  const target = { channel: m.channel, threadTs };
  const started = Date.now();

  // "Working on it": a reaction on their message if the turn takes a while, removed after.
  let reacted: Promise<boolean> | undefined;
  const cue = setTimeout(() => {
    reacted = client.reactions
      .add({ channel: m.channel, timestamp: m.ts, name: WORKING_REACTION })
      .then(() => true)
      .catch((err) => {
        log.debug({ err }, 'could not add the working reaction');
        return false;
      });
  }, deps.cueDelayMs);
  const endCue = async () => {
    clearTimeout(cue);
    if (reacted && (await reacted)) {
      await client.reactions
        .remove({ channel: m.channel, timestamp: m.ts, name: WORKING_REACTION })
        .catch(() => undefined);
    }
  };

  const withFiles = m.subtype === 'file_share' || (m.files?.length ?? 0) > 0;
  try {
    const customerId = await customerForSlackUser(deps.pool, user);
    const turn = await deps.agent.handleMessage({
      threadId,
      customerId,
      text: m.text ?? '',
      source: 'slack',
      slack: { channel: m.channel, threadTs, userId: user },
      messageKey: eventId,
    });
    await endCue();
    // The agent posted its replies through the bot's delivery port; if that failed they stay in
    // its outbox, and this message is not done: the apology below, then inbox recovery.
    if (turn.delivered === false) throw new Error('the replies could not be posted');
    // Said after a fresh answer only, so a repeated delivery (inbox recovery) does not repeat it.
    if (withFiles && turn.replies.length) await postReplies(client, target, [ATTACHMENT_NOTE]);
    await markEventDone(deps.pool, eventId);
    log.info(
      {
        customer_id: customerId,
        status: turn.status,
        pending: turn.pending.map((a) => a.id),
        ms: Date.now() - started,
      },
      'customer message answered',
    );
  } catch (err) {
    await endCue();
    let text = APOLOGY;
    if (err instanceof AgentError) {
      if (err.code === 'thread_owned_by_other_customer') {
        // Staff talking in a customer's thread is not a customer message.
        if (await deps.managers.isManager(user)) {
          log.info('manager wrote in a customer thread; not handled by the agent');
          await markEventDone(deps.pool, eventId);
          return;
        }
        text = OTHER_CUSTOMER;
      } else if (err.code === 'empty_message') {
        text = withFiles ? ATTACHMENT_ONLY : "I didn't catch any text in that message. What can I help you with?";
      } else {
        text = `Sorry! ${err.message} I haven't acted on this one.`; // message_too_long, unknown_customer, overloaded
      }
      log.info({ code: err.code }, 'customer message refused politely');
    } else {
      log.error({ err }, 'customer message failed');
    }
    try {
      await postReplies(client, target, [text]);
      await markEventDone(deps.pool, eventId); // ended with a visible answer
    } catch (postErr) {
      log.error({ err: postErr }, 'could not even post the apology');
    }
  }
}
