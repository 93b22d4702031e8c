import type { Queryable } from '../../core/pg-pool.js';
import { addDays, localParts, zonedTime } from '../../core/time.js';
import { type LocalDate, lastStartHour, openingHours, SLOT_DAYS } from '../business/calendar.js';
import { freeCrews } from '../bookings/free-crews.js';
import type { SeedCustomer, SeedVisit } from './customers.js';
import { SERVICES } from './services.js';

const HOUR = 3_600_000;

/**
 * Days to try for a visit, nearest first: its own day, then later days, then earlier ones, all
 * within the slots the seed lays out. A demo seeded on a Saturday puts a "two weeks out" visit on a
 * Sunday, which has no hours; the visit moves to the nearest day that has them.
 */
export function candidateDays(inDays: number): number[] {
  const day = Math.min(Math.max(inDays, 1), SLOT_DAYS);
  const later = Array.from({ length: SLOT_DAYS - day }, (_, i) => day + 1 + i);
  const earlier = Array.from({ length: day - 1 }, (_, i) => day - 1 - i);
  return [day, ...later, ...earlier];
}

/** Whether `visit` fits on `day` at its hour: the day is open and the visit ends by closing. */
function fits(day: LocalDate, visit: SeedVisit, minutes: number): boolean {
  const hours = openingHours(day);
  const last = lastStartHour(day, minutes);
  return hours !== undefined && last !== undefined && visit.hour >= hours[0] && visit.hour <= last;
}

/**
 * The visits written on customers' own calendars (`SeedCustomer.visits`), after the pre-made
 * bookings: on the crew the visit names when its hours are free, else on another crew, else on the
 * nearest day where a crew is free at that hour. A visit with no such day within the slots is left
 * out rather than failing the seed. Returns how many were written.
 */
export async function seedOwnVisits(
  db: Queryable,
  customers: readonly SeedCustomer[],
  now: Date,
  timeZone: string,
): Promise<number> {
  const today = localParts(now, timeZone);
  let written = 0;
  for (const customer of customers) {
    for (const visit of customer.visits ?? []) {
      const service = SERVICES.find((s) => s.id === visit.service_id);
      if (!service) throw new Error(`seed visit of ${customer.id}: no service ${visit.service_id}`);
      const hours = Math.ceil(service.duration_minutes / 60);
      for (const n of candidateDays(visit.in_days)) {
        const day = addDays(today, n);
        if (!fits(day, visit, service.duration_minutes)) continue;
        const start = zonedTime({ ...day, hour: visit.hour }, timeZone);
        const [crew] = await freeCrews(db, { start, hours, preferCrew: visit.crew });
        if (!crew) continue;
        const booking = await db.query<{ id: string }>(
          `INSERT INTO bookings (customer_id, service_id, crew, starts_at, ends_at, notes)
           VALUES ($1, $2, $3, $4, $5, 'seeded') RETURNING id`,
          [customer.id, service.id, crew.crew, start, new Date(start.getTime() + hours * HOUR)],
        );
        for (const slotId of crew.slot_ids) {
          await db.query(`INSERT INTO booking_slots (slot_id, booking_id) VALUES ($1, $2)`, [
            slotId,
            booking.rows[0]!.id,
          ]);
        }
        written++;
        break;
      }
    }
  }
  return written;
}
