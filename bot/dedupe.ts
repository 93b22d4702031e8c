import type { Pool } from '../core/db.js';
import type { Logger } from '../core/logger.js';

const PRUNE_EVERY_MS = 60 * 60_000;
const KEEP_MS = 24 * 60 * 60_000;
let lastPrune = 0;

/**
 * Claim a Slack event id: true for the first delivery on any worker, false for every repeat
 * (Slack retries with X-Slack-Retry-Num, a load balancer replays, two workers get the same one).
 * One INSERT guarded by the primary key, so a race has one winner. Old ids are pruned now and then
 * (Slack retries for minutes, not days).
 */
export async function claimSlackEvent(pool: Pool, eventId: string, kind: string, inbox?: unknown): Promise<boolean> {
  // Customer messages are kept as an inbox row ('received' until answered), so a worker that dies
  // mid-turn leaves them for another worker (see inbox.ts); other events are done on arrival.
  const r = await pool.query(
    `INSERT INTO slack_events (event_id, kind, status, payload) VALUES ($1, $2, $3, $4) ON CONFLICT (event_id) DO NOTHING`,
    [eventId.slice(0, 200), kind.slice(0, 100), inbox ? 'received' : 'done', inbox ? JSON.stringify(inbox) : null],
  );
  if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
    lastPrune = Date.now();
    void pool.query(`DELETE FROM slack_events WHERE received_at < $1`, [new Date(Date.now() - KEEP_MS)]).catch(() => undefined);
  }
  return r.rowCount === 1;
}

/**
 * Bolt global middleware: an Events API delivery runs at most once across all workers. Bolt has
 * already acked it (Slack got its 2xx), so a repeat is simply dropped here, logged with its
 * retry number. Interactivity payloads have no event id and are never retried by Slack.
 */
export function dedupeMiddleware(pool: Pool, logger: Logger) {
  return async (args: { body: unknown; context: { retryNum?: number; retryReason?: string }; next: () => Promise<void> }) => {
    const body = args.body as { type?: string; event_id?: string; event?: { type?: string; subtype?: string; bot_id?: string } };
    if (body.type === 'event_callback' && typeof body.event_id === 'string') {
      const e = body.event;
      const inbox = e?.type === 'message' && !e.subtype && !e.bot_id ? e : undefined;
      const first = await claimSlackEvent(pool, body.event_id, e?.type ?? 'unknown', inbox);
      if (!first) {
        logger.info({ event_id: body.event_id, retry_num: args.context.retryNum, retry_reason: args.context.retryReason }, 'duplicate slack event ignored');
        return;
      }
    }
    await args.next();
  };
}
