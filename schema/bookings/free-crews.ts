import type { Queryable } from '../../core/pg-pool.js';

const HOUR = 3_600_000;

/**
 * The crews with `hours` free consecutive crew-hours from `start`, `preferCrew` first, each with
 * those slots in order. A read: whoever takes them still relies on booking_slots' primary key.
 */
export async function freeCrews(
  db: Queryable,
  o: { start: Date; hours: number; preferCrew?: string },
): Promise<{ crew: string; slot_ids: number[] }[]> {
  const r = await db.query<{ crew: string; slot_ids: number[] }>(
    `SELECT s.crew, array_agg(s.id ORDER BY s.starts_at) AS slot_ids
     FROM slots s
     WHERE s.starts_at >= $1 AND s.starts_at < $2
       AND NOT EXISTS (SELECT 1 FROM booking_slots bs WHERE bs.slot_id = s.id)
     GROUP BY s.crew
     HAVING count(*) = $3
     ORDER BY s.crew IS DISTINCT FROM $4::text, s.crew`,
    [o.start, new Date(o.start.getTime() + o.hours * HOUR), o.hours, o.preferCrew ?? null],
  );
  return r.rows;
}
