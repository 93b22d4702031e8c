import { isUniqueViolation, type Queryable } from '../../core/pg-pool.js';
import { formatInZone, localParts } from '../../core/time.js';
import type { BookSlotArgs, BookSlotResult } from '../../schema/tools/book-slot.js';
import { OPENING_HOURS } from '../../schema/business/calendar.js';
import type { WriteContext } from '../tool-handler.js';
import { ToolError } from '../../schema/tools/errors.js';
import { isoInZone, requireCustomer } from './shared.js';

const HOUR = 3_600_000;
const MAX_ALTERNATIVES = 5;

interface ServiceRow {
  id: string;
  name: string;
  duration_minutes: number;
  price_cents: number;
  active: boolean;
}

export interface AlternativeStart {
  /** ISO 8601 with the business time-zone offset: pass it back as start_time. */
  start_time: string;
  /** The same instant as people read it: "Tue, Dec 8, 10:00 AM EST". */
  display: string;
}

/**
 * The free start times nearest to `around` (after now) at which one crew has `hours` consecutive
 * free crew-hours. `lead()` over the free rows of a crew finds runs without a self-join: the row
 * `hours - 1` places later is exactly `hours - 1` hours later only if every hour in between is free.
 */
export async function nearestFreeStarts(
  db: Queryable,
  opts: { hours: number; around: Date; now: Date; timeZone: string; limit?: number },
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
     GROUP BY starts_at
     ORDER BY abs(extract(epoch FROM starts_at - $3::timestamptz)), starts_at
     LIMIT $4`,
    [opts.hours, opts.now, opts.around, opts.limit ?? MAX_ALTERNATIVES],
  );
  return res.rows
    .map((r) => r.starts_at)
    .sort((a, b) => a.getTime() - b.getTime())
    .map((d) => ({ start_time: isoInZone(d, opts.timeZone), display: formatInZone(d, opts.timeZone) }));
}

function openingProblem(start: Date, hours: number, timeZone: string): string | undefined {
  const local = localParts(start, timeZone);
  if (local.minute !== 0 || start.getUTCSeconds() !== 0 || start.getUTCMilliseconds() !== 0) {
    return 'Visits start on the hour (e.g. 10:00, 11:00).';
  }
  const open = OPENING_HOURS[local.weekday];
  if (!open) return 'We have no visits on that day of the week.';
  if (local.hour < open[0] || local.hour > open[1]) {
    return `Visits that day start between ${open[0]}:00 and ${open[1]}:00 local time.`;
  }
  if (local.hour + hours - 1 > open[1]) {
    return (
      `This service takes ${hours} hour${hours > 1 ? 's' : ''}, so it would run past closing; ` +
      `the latest start that day is ${open[1] - hours + 1}:00.`
    );
  }
  return undefined;
}

export async function bookSlot(args: BookSlotArgs, ctx: WriteContext): Promise<BookSlotResult> {
  const tx = ctx.tx;
  await requireCustomer(ctx, tx, args.customer_id);
  const service = (
    await tx.query<ServiceRow>(`SELECT id, name, duration_minutes, price_cents, active FROM services WHERE id = $1`, [
      args.service_id,
    ])
  ).rows[0];
  if (!service)
    throw new ToolError('not_found', `There is no service ${args.service_id}.`, { service_id: args.service_id });
  if (!service.active) {
    throw new ToolError('not_found', `${service.name} is no longer offered.`, {
      service_id: service.id,
      active: false,
    });
  }

  const start = new Date(args.start_time);
  const now = ctx.clock.now();
  const hours = Math.ceil(service.duration_minutes / 60);
  const alternatives = (around: Date) => nearestFreeStarts(tx, { hours, around, now, timeZone: ctx.timeZone });
  const when = formatInZone(start, ctx.timeZone);

  if (start.getTime() <= now.getTime()) {
    throw new ToolError(
      'slot_in_past',
      `${when} is in the past; pick a time after ${formatInZone(now, ctx.timeZone)}.`,
      {
        alternatives: await alternatives(now),
      },
    );
  }
  const problem = openingProblem(start, hours, ctx.timeZone);
  if (problem) {
    throw new ToolError('outside_business_hours', `${when} is outside our visit hours. ${problem}`, {
      alternatives: await alternatives(start),
    });
  }

  // Crews with `hours` consecutive free crew-hours starting exactly at `start`.
  const crews = await tx.query<{ crew: string; slot_ids: number[] }>(
    `SELECT s.crew, array_agg(s.id ORDER BY s.starts_at) AS slot_ids
     FROM slots s
     WHERE s.starts_at >= $1 AND s.starts_at < $2
       AND NOT EXISTS (SELECT 1 FROM booking_slots bs WHERE bs.slot_id = s.id)
     GROUP BY s.crew
     HAVING count(*) = $3
     ORDER BY s.crew`,
    [start, new Date(start.getTime() + hours * HOUR), hours],
  );
  const ends = new Date(start.getTime() + service.duration_minutes * 60_000);
  for (const { crew, slot_ids } of crews.rows) {
    // The primary key of booking_slots is the last word: a concurrent booking of the same crew-hour
    // makes this INSERT fail, and then the next crew is tried.
    await tx.query('SAVEPOINT book_slot');
    try {
      const booking = await tx.query<{ id: string; status: string }>(
        `INSERT INTO bookings (customer_id, service_id, crew, starts_at, ends_at, notes, approval_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, status`,
        [args.customer_id, service.id, crew, start, ends, args.notes ?? null, ctx.approvalId, now],
      );
      const id = booking.rows[0]!.id;
      await tx.query(`INSERT INTO booking_slots (slot_id, booking_id) SELECT unnest($1::bigint[]), $2`, [slot_ids, id]);
      await tx.query('RELEASE SAVEPOINT book_slot');
      return {
        booking: {
          id,
          customer_id: args.customer_id,
          service_id: service.id,
          service_name: service.name,
          crew,
          starts_at: isoInZone(start, ctx.timeZone),
          ends_at: isoInZone(ends, ctx.timeZone),
          price_cents: service.price_cents,
          status: booking.rows[0]!.status,
        },
      };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await tx.query('ROLLBACK TO SAVEPOINT book_slot');
    }
  }
  const alts = await alternatives(start);
  throw new ToolError(
    'slot_unavailable',
    `${when} is not available for ${service.name}.` +
      (alts.length
        ? ` Nearest free start times: ${alts.map((a) => a.display).join('; ')}.`
        : ' No free times in the next two weeks.'),
    { alternatives: alts },
  );
}
