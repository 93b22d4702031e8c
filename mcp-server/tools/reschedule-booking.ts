import { formatInZone } from '../../core/time.js';
import { changeFee } from '../../schema/business/change-policy.js';
import type { RescheduleBookingArgs, RescheduleBookingResult } from '../../schema/tools/booking-change.js';
import { ToolError } from '../../schema/tools/errors.js';
import type { WriteContext } from '../tool-handler.js';
import { lockChangeableBooking, toBooking } from './booking-change.js';
import { isoInZone } from './shared.js';
import { assertBookableStart, claimSlots, HOUR, slotUnavailable, takeFreeCrew } from './slots.js';

export async function rescheduleBooking(
  args: RescheduleBookingArgs,
  ctx: WriteContext,
): Promise<RescheduleBookingResult> {
  const tx = ctx.tx;
  const booking = await lockChangeableBooking(ctx, args, 'move');
  const start = new Date(args.new_start_time);
  if (start.getTime() === booking.starts_at.getTime()) {
    throw new ToolError(
      'conflict',
      `Booking ${booking.id} is already at ${formatInZone(start, ctx.timeZone)}; there is nothing to move.`,
      { booking_id: booking.id, reason: 'same_time' },
    );
  }
  const now = ctx.clock.now();
  // The visit keeps its own length, whatever the service's duration has become since.
  const durationMs = booking.ends_at.getTime() - booking.starts_at.getTime();
  const request = {
    start,
    field: 'new_start_time',
    hours: Math.ceil(durationMs / HOUR),
    now,
    timeZone: ctx.timeZone,
    // Offering the time it already has would be offering nothing.
    exclude: [booking.starts_at],
  };

  // Its own crew-hours count as free for the move (a 3-hour visit moved an hour later overlaps
  // itself), so they are let go first; a refusal below rolls that back before it is thrown.
  await tx.query('SAVEPOINT reschedule_booking');
  let crew: string | undefined;
  try {
    await tx.query('DELETE FROM booking_slots WHERE booking_id = $1', [booking.id]);
    await assertBookableStart(tx, request);
    crew = await takeFreeCrew(tx, { ...request, preferCrew: booking.crew }, async (free, slotIds) => {
      await claimSlots(tx, booking.id, slotIds);
      return free;
    });
    if (!crew) throw await slotUnavailable(tx, request, booking.service_name);
  } catch (err) {
    await tx.query('ROLLBACK TO SAVEPOINT reschedule_booking');
    throw err;
  }
  await tx.query('RELEASE SAVEPOINT reschedule_booking');

  const ends = new Date(start.getTime() + durationMs);
  await tx.query(`UPDATE bookings SET crew = $2, starts_at = $3, ends_at = $4 WHERE id = $1`, [
    booking.id,
    crew,
    start,
    ends,
  ]);
  return {
    booking: toBooking({ ...booking, crew, starts_at: start, ends_at: ends }, ctx.timeZone),
    previous: {
      starts_at: isoInZone(booking.starts_at, ctx.timeZone),
      ends_at: isoInZone(booking.ends_at, ctx.timeZone),
      crew: booking.crew,
    },
    // The fee follows the notice given for the visit as booked, not for the new time.
    fee: changeFee('reschedule', {
      startsAt: booking.starts_at,
      now: ctx.requestedAt,
      priceCents: booking.price_cents,
    }),
  };
}
