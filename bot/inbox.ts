import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';

/** A message whose worker died is picked up after this long (well past any normal turn). */
export const INBOX_STALE_MS = 2 * 60_000;
const MAX_ATTEMPTS = 3;

export async function markEventDone(pool: Pool, eventId: string | undefined): Promise<void> {
  if (!eventId) return;
  await pool.query(`UPDATE slack_events SET status = 'done' WHERE event_id = $1`, [eventId]);
}

/**
 * Finish customer messages that were acked (so Slack will not retry) but never answered because
 * their worker died. Claimed with SKIP LOCKED and a claim time, so several workers sweeping at
 * once take different rows; the agent recognises a repeated delivery by its event id, so a turn
 * that did complete is not answered twice.
 */
export async function recoverInbox(
  pool: Pool,
  logger: Logger,
  handle: (event: Record<string, unknown>, eventId: string) => Promise<void>,
  staleMs = INBOX_STALE_MS,
): Promise<number> {
  const rows = (
    await pool.query<{ event_id: string; payload: Record<string, unknown>; attempts: number }>(
      `UPDATE slack_events SET claimed_at = now(), attempts = attempts + 1
       WHERE event_id IN (
         SELECT event_id FROM slack_events
         WHERE status = 'received' AND payload IS NOT NULL AND attempts < $2
           AND received_at < now() - make_interval(secs => $1::float8 / 1000)
           AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $1::float8 / 1000))
         ORDER BY received_at LIMIT 10 FOR UPDATE SKIP LOCKED)
       RETURNING event_id, payload, attempts`,
      [staleMs, MAX_ATTEMPTS],
    )
  ).rows;
  for (const r of rows) {
    logger.warn({ event_id: r.event_id, attempt: r.attempts }, 'finishing a customer message whose worker stopped');
    try {
      await handle(r.payload, r.event_id);
    } catch (err) {
      logger.error({ err, event_id: r.event_id }, 'inbox recovery failed');
    }
  }
  return rows.length;
}
