import type { WebClient } from '@slack/web-api';
import type { Reply } from '../agent/reply.js';
import { clip, escapeText } from './escape.js';

/** What the thread shows in place of a reply that went to the customer privately. */
export const SENT_PRIVATELY_NOTE = "I've sent you the details in a direct message.";

/**
 * Post agent replies into a Slack thread. The agent's words can quote the customer, so they are
 * escaped like any other untrusted text: a reply can't ping @channel or show a fake link.
 */
export async function postReplies(
  client: WebClient,
  target: { channel: string; threadTs: string },
  replies: string[],
): Promise<void> {
  for (const reply of replies) {
    if (!reply.trim()) continue;
    await client.chat.postMessage({
      channel: target.channel,
      thread_ts: target.threadTs,
      text: escapeText(clip(reply, 39_000)),
      unfurl_links: false,
      unfurl_media: false,
    });
  }
}

/**
 * A conversation's replies where it lives. In a channel others can read (`shared`), a personal
 * reply goes to the customer as a direct message from the app (durable, unlike an ephemeral
 * message, which is gone on reload) and the thread gets a short note in its place; the reply is
 * never posted in the channel, so a failed DM fails the delivery (it stays in the outbox) rather
 * than falling back to the thread. Order is kept: each run of personal replies, then its note.
 */
export async function postConversationReplies(
  client: WebClient,
  target: { channel: string; threadTs: string; userId?: string; shared: boolean },
  replies: Reply[],
): Promise<{ direct: number }> {
  const shown = replies.filter((r) => r.text.trim());
  if (!target.shared) {
    await postReplies(
      client,
      target,
      shown.map((r) => r.text),
    );
    return { direct: 0 };
  }
  let direct = 0;
  for (let i = 0; i < shown.length; ) {
    const personal = shown[i]!.personal;
    let j = i;
    while (j < shown.length && shown[j]!.personal === personal) j++;
    const texts = shown.slice(i, j).map((r) => r.text);
    if (personal) {
      if (!target.userId) throw new Error('a personal reply has no customer to send it to');
      await postDirect(client, target.userId, texts, { from: target.channel });
      await postReplies(client, target, [SENT_PRIVATELY_NOTE]);
      direct += texts.length;
    } else await postReplies(client, target, texts);
    i = j;
  }
  return { direct };
}

/**
 * Messages to one person in their direct conversation with the app. Sent on behalf of a thread in
 * `from`, the last one says where the conversation is, since an answer in the DM would start a new one.
 */
export async function postDirect(
  client: WebClient,
  user: string,
  texts: string[],
  opts: { from?: string } = {},
): Promise<void> {
  const opened = await client.conversations.open({ users: user });
  const channel = opened.channel?.id;
  if (!channel) throw new Error(`no direct message channel with ${user}`);
  for (const [i, text] of texts.entries()) {
    const where =
      opts.from && i === texts.length - 1
        ? `\n_About your message in <#${opts.from}>: reply in that thread to go on._`
        : '';
    await client.chat.postMessage({
      channel,
      text: escapeText(clip(text, 39_000)) + where,
      unfurl_links: false,
      unfurl_media: false,
    });
  }
}

/**
 * Tell one person something only they should see: an ephemeral message in `channel`, or a direct
 * message from the app when they can't get one there (not a member of that channel).
 */
export async function tellPrivately(
  client: WebClient,
  p: { channel?: string; user: string; text: string; threadTs?: string },
): Promise<void> {
  if (p.channel) {
    try {
      await client.chat.postEphemeral({
        channel: p.channel,
        user: p.user,
        text: p.text,
        ...(p.threadTs ? { thread_ts: p.threadTs } : {}),
      });
      return;
    } catch {
      // not in the channel (or the channel is gone): fall through to a direct message
    }
  }
  await client.chat.postMessage({ channel: p.user, text: p.text });
}
