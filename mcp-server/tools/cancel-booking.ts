import { changeFee } from '../../schema/business/change-policy.js';
import type { CancelBookingArgs, CancelBookingResult } from '../../schema/tools/booking-change.js';
import type { WriteContext } from '../tool-handler.js';
import { lockChangeableBooking, toBooking } from './booking-change.js';

export async function cancelBooking(args: CancelBookingArgs, ctx: WriteContext): Promise<CancelBookingResult> {
  const tx = ctx.tx;
  const booking = await lockChangeableBooking(ctx, args, 'cancel');
  // Freeing the crew-hours is what makes the time bookable again; the row stays, as history.
  await tx.query('DELETE FROM booking_slots WHERE booking_id = $1', [booking.id]);
  await tx.query(
    `UPDATE bookings SET status = 'cancelled',
       notes = CASE WHEN $2::text IS NULL THEN notes ELSE concat_ws(E'\\n', notes, 'Cancelled: ' || $2::text) END
     WHERE id = $1`,
    [booking.id, args.reason ?? null],
  );
  return {
    booking: toBooking({ ...booking, status: 'cancelled' }, ctx.timeZone),
    fee: changeFee('cancel', {
      startsAt: booking.starts_at,
      now: ctx.requestedAt,
      priceCents: booking.price_cents,
    }),
  };
}
