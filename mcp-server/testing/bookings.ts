import type { Queryable } from '../../core/pg-pool.js';

const HOUR = 3_600_000;

/** The crews with `hours` consecutive free crew-hours starting exactly at `start`, by name. */
export async function freeCrewsAt(db: Queryable, start: Date | string, hours: number): Promise<string[]> {
  const from = new Date(start);
  const res = await db.query<{ crew: string }>(
    `SELECT s.crew FROM slots s
     WHERE s.starts_at >= $1 AND s.starts_at < $2
       AND NOT EXISTS (SELECT 1 FROM booking_slots bs WHERE bs.slot_id = s.id)
     GROUP BY s.crew HAVING count(*) = $3 ORDER BY s.crew`,
    [from, new Date(from.getTime() + hours * HOUR), hours],
  );
  return res.rows.map((r) => r.crew);
}

/**
 * A booking written straight into the tables, for tests that need one on a chosen crew, in the
 * past, or already cancelled (what no tool call can set up). A confirmed booking takes its
 * crew-hours; it throws when they are not free, so a test never starts from a double booking.
 */
export async function placeBooking(
  db: Queryable,
  opts: {
    customerId: string;
    serviceId: string;
    start: Date | string;
    crew?: string;
    status?: 'confirmed' | 'cancelled';
    /** false: a booking row only (a past visit: the calendar has no slots before tomorrow). */
    withSlots?: boolean;
  },
): Promise<{ id: string; crew: string }> {
  const service = (
    await db.query<{ duration_minutes: number }>(`SELECT duration_minutes FROM services WHERE id = $1`, [
      opts.serviceId,
    ])
  ).rows[0];
  if (!service) throw new Error(`placeBooking: no service ${opts.serviceId}`);
  const start = new Date(opts.start);
  const hours = Math.ceil(service.duration_minutes / 60);
  const status = opts.status ?? 'confirmed';
  const takesSlots = status === 'confirmed' && opts.withSlots !== false;
  let crew = opts.crew;
  if (takesSlots) {
    const free = await freeCrewsAt(db, start, hours);
    crew ??= free[0];
    if (!crew || !free.includes(crew))
      throw new Error(`placeBooking: ${opts.crew ?? 'no crew'} is not free at ${start}`);
  }
  crew ??= 'crew-a';
  const id = (
    await db.query<{ id: string }>(
      `INSERT INTO bookings (customer_id, service_id, crew, starts_at, ends_at, status, notes)
       VALUES ($1, $2, $3, $4, $5, $6, 'test fixture') RETURNING id`,
      [
        opts.customerId,
        opts.serviceId,
        crew,
        start,
        new Date(start.getTime() + service.duration_minutes * 60_000),
        status,
      ],
    )
  ).rows[0]!.id;
  if (takesSlots) {
    await db.query(
      `INSERT INTO booking_slots (slot_id, booking_id)
       SELECT id, $4 FROM slots WHERE crew = $1 AND starts_at >= $2 AND starts_at < $3`,
      [crew, start, new Date(start.getTime() + hours * HOUR), id],
    );
  }
  return { id, crew };
}

export interface BookingState {
  status: string;
  crew: string;
  starts_at: string;
  ends_at: string;
  /** The crew-hours it holds, as "crew@ISO start", in time order. */
  slots: string[];
}

/** A booking as the tables hold it, with the crew-hours it takes. */
export async function bookingState(db: Queryable, id: string): Promise<BookingState | undefined> {
  const row = (
    await db.query<{ status: string; crew: string; starts_at: Date; ends_at: Date }>(
      `SELECT status, crew, starts_at, ends_at FROM bookings WHERE id = $1`,
      [id],
    )
  ).rows[0];
  if (!row) return undefined;
  const slots = await db.query<{ slot: string }>(
    `SELECT s.crew || '@' || to_char(s.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS slot
     FROM booking_slots bs JOIN slots s ON s.id = bs.slot_id WHERE bs.booking_id = $1 ORDER BY s.starts_at`,
    [id],
  );
  return {
    status: row.status,
    crew: row.crew,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    slots: slots.rows.map((r) => r.slot),
  };
}

/** "crew@ISO" for `hours` crew-hours from `start`: what `bookingState(...).slots` lists for a visit there. */
export function slotKeys(crew: string, start: Date | string, hours: number): string[] {
  const t = new Date(start).getTime();
  return Array.from({ length: hours }, (_, i) => `${crew}@${new Date(t + i * HOUR).toISOString().replace('.000', '')}`);
}
