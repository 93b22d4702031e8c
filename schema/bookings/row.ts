/**
 * Columns of `bookings` (alias `b`) joined with its service (alias `s`) that make up a BookingRow:
 * what the tools, the cards and the lookup need to name, price and move a booking.
 */
export const BOOKING_COLUMNS =
  'b.id, b.customer_id, b.service_id, s.name AS service_name, s.price_cents, b.crew, b.starts_at, b.ends_at, b.status';

/** `FROM` clause the columns above are selected from. */
export const BOOKING_FROM = 'bookings b JOIN services s ON s.id = b.service_id';

/** A booking as stored, with its service's name and price. */
export interface BookingRow {
  id: string;
  customer_id: string;
  service_id: string;
  service_name: string;
  price_cents: number;
  crew: string;
  starts_at: Date;
  ends_at: Date;
  status: 'confirmed' | 'cancelled';
}
