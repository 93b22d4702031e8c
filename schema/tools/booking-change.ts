import { z } from 'zod';
import { Booking } from './book-slot.js';
import { CustomerId, DateTime } from './common.js';

export const BookingId = z
  .string()
  .trim()
  .regex(/^BKG-\d{1,12}$/, 'must look like BKG-1001')
  .describe("From lookup_customer's upcoming_bookings.");

const Fee = z.object({
  fee_cents: z.number().int().describe('What the change costs under the business policy, in cents (0: free).'),
  notice_hours: z.number().int().describe('Hours between the change and the booked start.'),
  rule: z.string().describe('The policy rule that set the fee, in words.'),
});

export const RescheduleBookingInput = z.object({
  customer_id: CustomerId,
  booking_id: BookingId,
  new_start_time: DateTime,
});

export const RescheduleBookingOutput = z.object({
  booking: Booking.describe('The booking at its new time (same id).'),
  previous: z
    .object({ starts_at: z.string(), ends_at: z.string(), crew: z.string() })
    .describe('Where the booking was before; those slots are free again.'),
  fee: Fee,
});

export const CancelBookingInput = z.object({
  customer_id: CustomerId,
  booking_id: BookingId,
  reason: z.string().trim().max(500).optional(),
});

export const CancelBookingOutput = z.object({
  booking: Booking.describe('The booking, now with status "cancelled"; its slots are free again.'),
  fee: Fee,
});

export type RescheduleBookingArgs = z.infer<typeof RescheduleBookingInput>;
export type RescheduleBookingResult = z.infer<typeof RescheduleBookingOutput>;
export type CancelBookingArgs = z.infer<typeof CancelBookingInput>;
export type CancelBookingResult = z.infer<typeof CancelBookingOutput>;
