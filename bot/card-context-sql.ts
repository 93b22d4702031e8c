import type { Approval } from '../agent/approvals/ledger.js';
import type { Pool } from '../core/pg-pool.js';
import { BOOKING_COLUMNS, BOOKING_FROM } from '../schema/bookings/row.js';
import { CUSTOMER_COLUMNS } from '../schema/customers/row.js';
import type { BookingRow, CardContext, CustomerRow, ServiceRow } from './blocks/card.js';

/** Enough for every check a card makes; the card lists fewer. */
const MAX_UPCOMING = 50;

/**
 * The select-list that reads everything a card is drawn from besides the approval row, for the
 * approval (or stand-in row) aliased `a` with `customer_id`, `thread_id`, `tool` and `args`, as
 * columns of one row: a card costs one statement, whoever reads it. `now` is the parameter of the
 * business clock; NULL leaves the bookings unloaded (an edit form makes no check on them).
 */
export function cardContextColumns(now: string): string {
  const t = `${now}::timestamptz`;
  return `
    (SELECT to_jsonb(x) FROM (SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = a.customer_id) x) AS ctx_customer,
    (SELECT coalesce(json_agg(s ORDER BY s.id), '[]'::json)
       FROM (SELECT id, name, duration_minutes, price_cents FROM services) s) AS ctx_services,
    (SELECT slack_channel FROM conversations WHERE thread_id = a.thread_id) AS ctx_channel,
    CASE WHEN ${t} IS NOT NULL AND a.customer_id IS NOT NULL THEN
      (SELECT coalesce(json_agg(u ORDER BY u.starts_at, u.id), '[]'::json) FROM (
         SELECT ${BOOKING_COLUMNS} FROM ${BOOKING_FROM}
         WHERE b.customer_id = a.customer_id AND b.status = 'confirmed' AND b.starts_at > ${t}
         ORDER BY b.starts_at, b.id LIMIT ${MAX_UPCOMING}) u)
    END AS ctx_upcoming,
    (${t} IS NOT NULL AND a.tool IN ('reschedule_booking', 'cancel_booking')
      AND jsonb_typeof(a.args -> 'booking_id') = 'string') AS ctx_has_target,
    (SELECT to_jsonb(x) FROM (SELECT ${BOOKING_COLUMNS} FROM ${BOOKING_FROM} WHERE b.id = a.args ->> 'booking_id') x
      WHERE ${t} IS NOT NULL AND a.tool IN ('reschedule_booking', 'cancel_booking')) AS ctx_target`;
}

/** The columns `cardContextColumns` adds to a row. */
export interface CardContextColumns {
  ctx_customer: CustomerRow | null;
  ctx_services: ServiceRow[];
  ctx_channel: string | null;
  ctx_upcoming: BookingRow[] | null;
  ctx_has_target: boolean;
  ctx_target: BookingRow | null;
}

/** Bookings come back as JSON: their times as text. */
const booking = (b: BookingRow): BookingRow => ({
  ...b,
  starts_at: new Date(b.starts_at),
  ends_at: new Date(b.ends_at),
});

export function cardContextOf(row: CardContextColumns, timeZone: string, now?: Date): CardContext {
  return {
    timeZone,
    customer: row.ctx_customer ?? null,
    services: row.ctx_services ?? [],
    conversationChannel: row.ctx_channel ?? null,
    ...(now ? { now } : {}),
    ...(now && row.ctx_upcoming ? { upcomingBookings: row.ctx_upcoming.map(booking) } : {}),
    ...(now && row.ctx_has_target ? { targetBooking: row.ctx_target ? booking(row.ctx_target) : null } : {}),
  };
}

/**
 * Everything a card is drawn from besides the approval row, in one statement. With `now` (the
 * business clock), also the customer's upcoming bookings and the booking a reschedule or
 * cancellation names, for the card's checks; without it (an edit form) those stay unloaded, and
 * no check is made.
 */
export async function loadCardContext(
  pool: Pool,
  a: Pick<Approval, 'customer_id' | 'thread_id'> & Partial<Pick<Approval, 'tool' | 'args'>>,
  timeZone: string,
  now?: Date,
): Promise<CardContext> {
  const r = await pool.query<CardContextColumns>(
    `SELECT ${cardContextColumns('$5')}
     FROM (SELECT $1::text AS customer_id, $2::text AS thread_id, $3::text AS tool, $4::jsonb AS args) a`,
    [a.customer_id, a.thread_id, a.tool ?? null, a.args === undefined ? null : JSON.stringify(a.args), now ?? null],
  );
  return cardContextOf(r.rows[0]!, timeZone, now);
}
