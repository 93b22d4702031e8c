// The statements of the card outbox (schema/migrations/007_card_outbox.sql): the ledger's own
// transitions fill it (a trigger); the sender claims, draws and settles.
import type { Approval } from '../agent/approvals/ledger.js';
import type { Pool } from '../core/pg-pool.js';
import { cardContextColumns, type CardContextColumns } from './card-context-sql.js';

/** A claimed card: the approval as it is now (absent: the row is gone) and what its card is drawn from. */
export interface ClaimedCard {
  approvalId: string;
  version: string;
  attempts: number;
  approval: Approval | undefined;
  context: CardContextColumns;
}

/** Ask for these approvals' cards to be redrawn (a card out of date without a ledger change: a stale click). */
export async function requestCards(pool: Pool, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await pool.query(
    `INSERT INTO card_outbox (approval_id, version)
     SELECT id, nextval('card_outbox_version') FROM unnest($1::uuid[]) AS id
     ON CONFLICT (approval_id) DO UPDATE SET version = EXCLUDED.version`,
    [ids],
  );
}

/**
 * Claim up to `limit` due cards for `claimant` for `leaseMs`, oldest request first, with each
 * approval and its card's context: one statement for the whole batch. `now` is the business clock.
 */
export async function claimCards(
  pool: Pool,
  o: { claimant: string; limit: number; leaseMs: number; now: Date },
): Promise<ClaimedCard[]> {
  const r = await pool.query<
    Approval & CardContextColumns & { outbox_id: string; outbox_version: string; outbox_attempts: number }
  >(
    `WITH due AS (
       SELECT approval_id FROM card_outbox
       WHERE claimed_until IS NULL OR claimed_until < now()
       ORDER BY requested_at LIMIT $2 FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE card_outbox o SET claimed_by = $1, claimed_until = now() + make_interval(secs => $3::float8 / 1000),
         attempts = o.attempts + 1
       FROM due WHERE o.approval_id = due.approval_id
       RETURNING o.approval_id, o.version, o.attempts, o.requested_at
     )
     SELECT c.approval_id AS outbox_id, c.version AS outbox_version, c.attempts AS outbox_attempts, a.*,
       ${cardContextColumns('$4')}
     FROM claimed c LEFT JOIN approvals a ON a.id = c.approval_id
     ORDER BY c.requested_at`,
    [o.claimant, o.limit, o.leaseMs, o.now],
  );
  return r.rows.map((row) => {
    const { outbox_id, outbox_version, outbox_attempts, ctx_customer, ctx_services, ctx_channel, ...rest } = row;
    const { ctx_upcoming, ctx_has_target, ctx_target, ...approval } = rest;
    return {
      approvalId: outbox_id,
      version: String(outbox_version),
      attempts: outbox_attempts,
      approval: approval.id ? (approval as Approval) : undefined,
      context: { ctx_customer, ctx_services, ctx_channel, ctx_upcoming, ctx_has_target, ctx_target },
    };
  });
}

export type Settled = 'done' | 'changed' | 'lost';

/**
 * A claimed card was drawn (and, for a new card, posted as `posted`): record the card, and drop
 * the request unless the approval changed again meanwhile (then release it for another round).
 * `attached` false: another card was recorded first. `lost`: the claim ran out and someone else
 * holds it; the caller asks for a redraw, so the latest state is drawn after whatever we sent.
 */
export async function settleCard(
  pool: Pool,
  c: { approvalId: string; claimant: string; version: string; posted?: { channel: string; ts: string } },
): Promise<{ settled: Settled; attached: boolean }> {
  const r = await pool.query<{ attached: boolean; done: boolean; released: boolean }>(
    `WITH attached AS (
       UPDATE approvals SET card_channel = $4, card_ts = $5
       WHERE id = $1 AND $5::text IS NOT NULL AND card_ts IS NULL RETURNING id
     ), done AS (
       DELETE FROM card_outbox WHERE approval_id = $1 AND claimed_by = $2 AND version = $3 RETURNING 1
     ), released AS (
       UPDATE card_outbox SET claimed_by = NULL, claimed_until = NULL, attempts = 0
       WHERE approval_id = $1 AND claimed_by = $2 AND version <> $3 RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM attached) AS attached, EXISTS (SELECT 1 FROM done) AS done,
       EXISTS (SELECT 1 FROM released) AS released`,
    [c.approvalId, c.claimant, c.version, c.posted?.channel ?? null, c.posted?.ts ?? null],
  );
  const row = r.rows[0]!;
  return { settled: row.done ? 'done' : row.released ? 'changed' : 'lost', attached: row.attached };
}

/** Sending failed: try again after `retryMs` (another worker may take it then), or give up. */
export async function deferCard(
  pool: Pool,
  c: { approvalId: string; claimant: string; retryMs: number; giveUp: boolean },
): Promise<void> {
  await pool.query(
    c.giveUp
      ? `DELETE FROM card_outbox WHERE approval_id = $1 AND claimed_by = $2`
      : `UPDATE card_outbox SET claimed_by = NULL, claimed_until = now() + make_interval(secs => $3::float8 / 1000)
         WHERE approval_id = $1 AND claimed_by = $2`,
    c.giveUp ? [c.approvalId, c.claimant] : [c.approvalId, c.claimant, c.retryMs],
  );
}
