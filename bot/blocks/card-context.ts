import type { CustomerRow } from '../../schema/customers/row.js';
import type { BookingRow } from '../../schema/bookings/row.js';

export type { BookingRow };

export type { CustomerRow };

export interface ServiceRow {
  id: string;
  name: string;
  duration_minutes: number;
  price_cents: number;
}

/**
 * What a card shows besides the approval row: read from Postgres when the card is drawn. The
 * booking fields are optional: absent means "not loaded" (an edit form needs none of them), so
 * no check is made on them; it never means "the customer has none".
 */
export interface CardContext {
  timeZone: string;
  /** The customer's record as it is now (the "before" of an update that has not run yet). */
  customer: CustomerRow | null;
  services: ServiceRow[];
  /** Where the customer wrote, for the "in #support" line. */
  conversationChannel?: string | null;
  /** When the card is drawn, by the business clock: what a change would cost if approved now. */
  now?: Date;
  /** The customer's confirmed bookings that have not started yet, soonest first. */
  upcomingBookings?: BookingRow[];
  /** The booking a reschedule or cancellation names, whoever it belongs to; null: there is no such booking. */
  targetBooking?: BookingRow | null;
}
