/**
 * When a new or moved visit looks like a mistake a manager should see before approving it: the
 * customer already has the same service booked within a few days ("move my deep clean to
 * Wednesday" proposed as a second deep clean), or another of their visits at an overlapping time.
 * Cards flag these; nothing is refused for them (a customer may well want two visits).
 */

/** A booking of the same service less than this many days from the new one is a likely duplicate. */
export const DUPLICATE_SERVICE_WINDOW_DAYS = 7;

export interface BookingSpan {
  id: string;
  service_id: string;
  starts_at: Date;
  ends_at: Date;
}

export interface BookingConflict<T extends BookingSpan> {
  booking: T;
  /** The two visits share time. */
  overlaps: boolean;
  /** Same service, less than DUPLICATE_SERVICE_WINDOW_DAYS apart. */
  sameService: boolean;
}

/** Visits take whole crew-hours: a 90-minute service holds two. */
export const visitEnd = (start: Date, durationMinutes: number) =>
  new Date(start.getTime() + Math.ceil(durationMinutes / 60) * 3_600_000);

/** The existing bookings that a visit `proposed` would duplicate or overlap, in their order. */
export function bookingConflicts<T extends BookingSpan>(
  proposed: { service_id: string; starts_at: Date; ends_at: Date /** the booking being moved */; replaces?: string },
  existing: readonly T[],
): BookingConflict<T>[] {
  const window = DUPLICATE_SERVICE_WINDOW_DAYS * 86_400_000;
  return existing
    .filter((b) => b.id !== proposed.replaces)
    .map((b) => ({
      booking: b,
      overlaps: b.starts_at < proposed.ends_at && proposed.starts_at < b.ends_at,
      sameService:
        b.service_id === proposed.service_id && Math.abs(b.starts_at.getTime() - proposed.starts_at.getTime()) < window,
    }))
    .filter((c) => c.overlaps || c.sameService);
}
