import type { Pool } from '../core/pg-pool.js';

const SLACK_THREAD_PREFIX = 'slack:';

/** One conversation per Slack thread: a top-level message starts one, replies continue it. */
export const threadIdFor = (channel: string, threadTs: string): string =>
  `${SLACK_THREAD_PREFIX}${channel}:${threadTs}`;

/**
 * Can this conversation be a Slack thread? Only `threadIdFor` names the conversations Slack starts
 * (the HTTP API's are `api:…` and it refuses any other), so any other id has no Slack place.
 */
export const isSlackThread = (threadId: string): boolean => threadId.startsWith(SLACK_THREAD_PREFIX);

/** Where a conversation lives in Slack, and whose it is, from Postgres (any worker can answer it). */
export async function slackTargetOf(
  pool: Pool,
  threadId: string,
): Promise<{ channel: string; threadTs: string; userId?: string } | undefined> {
  if (!isSlackThread(threadId)) return undefined;
  const r = await pool.query<{
    slack_channel: string | null;
    slack_thread_ts: string | null;
    slack_user_id: string | null;
  }>(
    `SELECT slack_channel, slack_thread_ts, slack_user_id FROM conversations WHERE thread_id = $1 AND source = 'slack'`,
    [threadId],
  );
  const row = r.rows[0];
  return row?.slack_channel && row.slack_thread_ts
    ? { channel: row.slack_channel, threadTs: row.slack_thread_ts, userId: row.slack_user_id ?? undefined }
    : undefined;
}

/**
 * Can people other than the customer read this channel? A DM with the app (D…) and the channels
 * configured as private to one customer (SLACK_PRIVATE_CHANNELS) are theirs alone; every other
 * channel, the support channel first, is shared.
 */
export const isSharedChannel = (channel: string, privateChannels: readonly string[]): boolean =>
  !channel.startsWith('D') && !privateChannels.includes(channel);
