import type { Queryable } from '../../core/pg-pool.js';
import { TEST_NOW, TEST_TZ } from '../../core/testing/test-database.js';
import { isoInZone } from '../tools/shared.js';

/**
 * Start times (ISO with the business offset) at which at least `crews` crews have `hours`
 * consecutive free crew-hours, after TEST_NOW, earliest first.
 */
export async function freeStarts(
  db: Queryable,
  opts: { hours: number; crews?: number; limit?: number; after?: Date },
): Promise<string[]> {
  const res = await db.query<{ starts_at: Date }>(
    `WITH free AS (
       SELECT s.crew, s.starts_at,
         lead(s.starts_at, $1::int - 1) OVER (PARTITION BY s.crew ORDER BY s.starts_at) AS last_start
       FROM slots s
       WHERE s.starts_at > $2 AND NOT EXISTS (SELECT 1 FROM booking_slots bs WHERE bs.slot_id = s.id)
     )
     SELECT starts_at FROM free
     WHERE last_start = starts_at + make_interval(hours => $1::int - 1)
     GROUP BY starts_at HAVING count(*) >= $3
     ORDER BY starts_at LIMIT $4`,
    [opts.hours, opts.after ?? new Date(TEST_NOW), opts.crews ?? 1, opts.limit ?? 20],
  );
  return res.rows.map((r) => isoInZone(r.starts_at, TEST_TZ));
}
