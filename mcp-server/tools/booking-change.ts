import { BOOKING_COLUMNS, BOOKING_FROM, type BookingRow } from '../../schema/bookings/row.js';
import { BOOKING_CHANGE_TOOLS } from '../../schema/tools/catalog.js';
import { formatInZone } from '../../core/time.js';
import type { BookSlotResult } from '../../schema/tools/book-slot.js';
import { ToolError } from '../../schema/tools/errors.js';
import type { WriteContext } from '../tool-handler.js';
import { isoInZone, requireCustomer } from './shared.js';

/** What reschedule_booking and cancel_booking share: finding, locking and vetting the booking. */

export function toBooking(b: BookingRow, timeZone: string): BookSlotResult['booking'] {
  return {
    id: b.id,
    customer_id: b.customer_id,
    service_id: b.service_id,
    service_name: b.service_name,
    crew: b.crew,
    starts_at: isoInZone(b.starts_at, timeZone),
    ends_at: isoInZone(b.ends_at, timeZone),
    price_cents: b.price_cents,
    status: b.status,
  };
}

/**
 * The customer's booking, locked for the rest of the gate's transaction, if it may still change:
 * confirmed, not started, and not changed by another approval since this one was asked for.
 * The row lock serialises two approvals changing one booking; the second then sees the first's
 * change and is refused, rather than applied to a booking the manager never saw.
 */
export async function lockChangeableBooking(
  ctx: WriteContext,
  args: { customer_id: string; booking_id: string },
  change: 'move' | 'cancel',
): Promise<BookingRow> {
  const tx = ctx.tx;
  await requireCustomer(ctx, tx, args.customer_id);
  const booking = (
    await tx.query<BookingRow>(
      `SELECT ${BOOKING_COLUMNS} FROM ${BOOKING_FROM}
       WHERE b.id = $1 AND b.customer_id = $2
       FOR UPDATE OF b`,
      [args.booking_id, args.customer_id],
    )
  ).rows[0];
  // Another customer's booking gets the same answer as one that doesn't exist: no probing by id.
  if (!booking) {
    throw new ToolError(
      'not_found',
      `There is no booking ${args.booking_id} for this customer. Use lookup_customer to see their upcoming bookings.`,
      { booking_id: args.booking_id },
    );
  }
  const verb = change === 'move' ? 'moved' : 'cancelled';
  if (booking.status !== 'confirmed') {
    throw new ToolError(
      'booking_not_changeable',
      `Booking ${booking.id} is ${booking.status}; it can't be ${verb}.` +
        (change === 'move' ? ' Book a new visit instead.' : ''),
      { booking_id: booking.id, status: booking.status },
    );
  }
  const now = ctx.clock.now();
  if (booking.starts_at.getTime() <= now.getTime()) {
    const over = booking.ends_at.getTime() <= now.getTime();
    throw new ToolError(
      'booking_not_changeable',
      `Booking ${booking.id} ${over ? 'is over' : 'has started'} ` +
        `(${formatInZone(booking.starts_at, ctx.timeZone)}); it can't be ${verb} any more.`,
      { booking_id: booking.id, status: over ? 'over' : 'started' },
    );
  }
  const changedSince = await tx.query(
    `SELECT 1 FROM approvals other
     WHERE other.id <> $2 AND other.tool = ANY($3::text[]) AND other.status = 'executed'
       AND other.args->>'booking_id' = $1 AND other.executed_at > $4
     LIMIT 1`,
    [booking.id, ctx.approvalId, [...BOOKING_CHANGE_TOOLS], ctx.requestedAt],
  );
  if (changedSince.rows.length) {
    throw new ToolError(
      'conflict',
      `Booking ${booking.id} was changed by another request after this one was made; nothing was done. ` +
        'Look up the booking again and ask anew if it should still change.',
      { booking_id: booking.id, reason: 'changed_since_request' },
    );
  }
  return booking;
}
