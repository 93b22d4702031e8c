import { isUniqueViolation, type PoolClient, type Queryable } from '../../core/pg-pool.js';
import { formatInZone, localParts } from '../../core/time.js';
import { isClosedDay, lastStartHour, OPENING_HOURS, openingHours } from '../../schema/business/calendar.js';
import { freeCrews } from '../../schema/bookings/free-crews.js';
import { ToolError } from '../../schema/tools/errors.js';
import { isoInZone } from './shared.js';

/**
 * What book_slot and reschedule_booking share about a start time: the calendar's rules, the free
 * crew search and the nearest free starts to offer instead. Both tools say no the same way.
 */

export const HOUR = 3_600_000;
const MAX_ALTERNATIVES = 5;

export interface AlternativeStart {
  /** ISO 8601 with the business time-zone offset: pass it back as start_time. */
  start_time: string;
  /** The same instant as people read it: "Tue, Dec 8, 10:00 AM EST". */
  display: string;
}

/**
 * The free start times nearest to `around` (after now) at which one crew has `hours` consecutive
 * free crew-hours, never one of `exclude`. `lead()` over the free rows of a crew finds runs
 * without a self-join: the row `hours - 1` places later is exactly `hours - 1` hours later only if
 * every hour in between is free.
 */
export async function nearestFreeStarts(
  db: Queryable,
  opts: { hours: number; around: Date; now: Date; timeZone: string; limit?: number; exclude?: Date[] },
): Promise<AlternativeStart[]> {
  const res = await db.query<{ starts_at: Date }>(
    `WITH free AS (
       SELECT s.crew, s.starts_at,
         lead(s.starts_at, $1::int - 1) OVER (PARTITION BY s.crew ORDER BY s.starts_at) AS last_start
       FROM slots s
       WHERE s.starts_at > $2 AND NOT EXISTS (SELECT 1 FROM booking_slots bs WHERE bs.slot_id = s.id)
     )
     SELECT starts_at FROM free
     WHERE last_start = starts_at + make_interval(hours => $1::int - 1)
       AND starts_at <> ALL($5::timestamptz[])
     GROUP BY starts_at
     ORDER BY abs(extract(epoch FROM starts_at - $3::timestamptz)), starts_at
     LIMIT $4`,
    [opts.hours, opts.now, opts.around, opts.limit ?? MAX_ALTERNATIVES, opts.exclude ?? []],
  );
  return res.rows
    .map((r) => r.starts_at)
    .sort((a, b) => a.getTime() - b.getTime())
    .map((d) => ({ start_time: isoInZone(d, opts.timeZone), display: formatInZone(d, opts.timeZone) }));
}

/**
 * Why a visit of `hours` can't start at `start` by the calendar (on the hour, open that day,
 * finished by the hour after the last start), or undefined. Holidays and early closing count:
 * the same day-by-day hours the seed makes slots from.
 */
export function openingProblem(start: Date, hours: number, timeZone: string): string | undefined {
  const local = localParts(start, timeZone);
  if (local.minute !== 0 || start.getUTCSeconds() !== 0 || start.getUTCMilliseconds() !== 0) {
    return 'Visits start on the hour (e.g. 10:00, 11:00).';
  }
  if (!OPENING_HOURS[local.weekday]) return 'We have no visits on that day of the week.';
  const open = openingHours(local);
  if (!open) return isClosedDay(local) ? 'We are closed that day (a public holiday).' : 'We are closed that day.';
  if (local.hour < open[0] || local.hour > open[1]) {
    return `Visits that day start between ${open[0]}:00 and ${open[1]}:00 local time.`;
  }
  const last = lastStartHour(local, hours * 60);
  if (last === undefined || local.hour > last) {
    return (
      `This service takes ${hours} hour${hours > 1 ? 's' : ''}, so it would run past closing; ` +
      (last === undefined ? 'that day is too short for it.' : `the latest start that day is ${last}:00.`)
    );
  }
  return undefined;
}

export interface StartRequest {
  start: Date;
  /** The argument that gave the start: a refusal names it (`details.field`), for whoever edits it. */
  field: string;
  hours: number;
  now: Date;
  timeZone: string;
  /** Starts never to offer as alternatives (a booking's own current start). */
  exclude?: Date[];
}

const alternativesFor = (db: Queryable, r: StartRequest, around: Date) =>
  nearestFreeStarts(db, { hours: r.hours, around, now: r.now, timeZone: r.timeZone, exclude: r.exclude });

/** Refuse a start in the past or outside the calendar, with the nearest free starts to offer instead. */
export async function assertBookableStart(db: Queryable, r: StartRequest): Promise<void> {
  const when = formatInZone(r.start, r.timeZone);
  if (r.start.getTime() <= r.now.getTime()) {
    throw new ToolError(
      'slot_in_past',
      `${when} is in the past; pick a time after ${formatInZone(r.now, r.timeZone)}.`,
      { field: r.field, alternatives: await alternativesFor(db, r, r.now) },
    );
  }
  const problem = openingProblem(r.start, r.hours, r.timeZone);
  if (problem) {
    throw new ToolError('outside_business_hours', `${when} is outside our visit hours. ${problem}`, {
      field: r.field,
      alternatives: await alternativesFor(db, r, r.start),
    });
  }
}

/** The refusal for a start no crew is free at, listing the nearest free starts. */
export async function slotUnavailable(db: Queryable, r: StartRequest, serviceName: string): Promise<ToolError> {
  const alts = await alternativesFor(db, r, r.start);
  return new ToolError(
    'slot_unavailable',
    `${formatInZone(r.start, r.timeZone)} is not available for ${serviceName}.` +
      (alts.length
        ? ` Nearest free start times: ${alts.map((a) => a.display).join('; ')}.`
        : ' No free times in the next two weeks.'),
    { field: r.field, alternatives: alts },
  );
}

/**
 * Give the first crew with `hours` free consecutive crew-hours at `start` to `take` (which
 * writes the booking row and its booking_slots), `preferCrew` first. The primary key of
 * booking_slots is the last word: a concurrent booking of the same crew-hour makes the insert
 * fail, that crew's attempt is rolled back to its savepoint and the next crew is tried.
 * Undefined when no crew could be had.
 */
export async function takeFreeCrew<T>(
  tx: PoolClient,
  o: { start: Date; hours: number; preferCrew?: string },
  take: (crew: string, slotIds: number[]) => Promise<T>,
): Promise<T | undefined> {
  const crews = await freeCrews(tx, o);
  for (const { crew, slot_ids } of crews) {
    await tx.query('SAVEPOINT take_crew');
    try {
      const taken = await take(crew, slot_ids);
      await tx.query('RELEASE SAVEPOINT take_crew');
      return taken;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await tx.query('ROLLBACK TO SAVEPOINT take_crew');
    }
  }
  return undefined;
}

/** Claim crew-hours for a booking (the INSERT that the booking_slots primary key guards). */
export async function claimSlots(tx: Queryable, bookingId: string, slotIds: number[]): Promise<void> {
  await tx.query(`INSERT INTO booking_slots (slot_id, booking_id) SELECT unnest($1::bigint[]), $2`, [
    slotIds,
    bookingId,
  ]);
}
