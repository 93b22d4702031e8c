import type { WebClient } from '@slack/web-api';
import { clip, escapeText } from './escape.js';

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
