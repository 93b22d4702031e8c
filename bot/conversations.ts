import type { Pool } from '../core/pg-pool.js';

/** One conversation per Slack thread: a top-level message starts one, replies continue it. */
export const threadIdFor = (channel: string, threadTs: string): string => `slack:${channel}:${threadTs}`;

/** Where a conversation lives in Slack, from Postgres (any worker can answer it). */
export async function slackTargetOf(
  pool: Pool,
  threadId: string,
): Promise<{ channel: string; threadTs: string } | undefined> {
  const r = await pool.query<{ slack_channel: string | null; slack_thread_ts: string | null }>(
    `SELECT slack_channel, slack_thread_ts FROM conversations WHERE thread_id = $1 AND source = 'slack'`,
    [threadId],
  );
  const row = r.rows[0];
  return row?.slack_channel && row.slack_thread_ts
    ? { channel: row.slack_channel, threadTs: row.slack_thread_ts }
    : undefined;
}
