import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createSeededDatabase, TEST_TZ, type TestDatabase } from '../../core/testing/test-database.js';
import { closedDays, earlyCloseLastStart, isClosedDay, isOpen, openingHours } from './calendar.js';

const dbs: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(dbs.map((d) => d.drop()));
});

describe('holiday calendar', () => {
  it('knows the six closed days of a year, moving ones included', () => {
    expect(closedDays(2026).map((d) => `${d.month}/${d.day}`)).toEqual(['1/1', '5/25', '7/4', '9/7', '11/26', '12/25']);
    expect(closedDays(2027).map((d) => `${d.month}/${d.day}`)).toEqual(['1/1', '5/31', '7/4', '9/6', '11/25', '12/25']);
    expect(isClosedDay({ year: 2026, month: 12, day: 26 })).toBe(false);
    expect(earlyCloseLastStart({ year: 2026, month: 12, day: 24 })).toBe(13);
    expect(earlyCloseLastStart({ year: 2026, month: 12, day: 23 })).toBeUndefined();
  });

  it(
    'gives each day its hours: weekdays, Saturday mornings, ' +
      'closed on Sundays and holidays, early on Christmas Eve',
    () => {
      expect(openingHours({ year: 2026, month: 12, day: 7 })).toEqual([8, 17]);
      expect(openingHours({ year: 2026, month: 12, day: 12 })).toEqual([9, 13]);
      expect(openingHours({ year: 2026, month: 12, day: 13 })).toBeUndefined();
      expect(openingHours({ year: 2026, month: 12, day: 25 })).toBeUndefined();
      expect(openingHours({ year: 2026, month: 12, day: 24 })).toEqual([8, 13]);
      expect(isOpen(new Date('2026-12-08T15:00:00Z'), TEST_TZ)).toBe(true);
      expect(isOpen(new Date('2026-12-08T15:30:00Z'), TEST_TZ)).toBe(false);
      expect(isOpen(new Date('2026-12-24T19:00:00Z'), TEST_TZ)).toBe(false);
    },
  );

  it('the seeded calendar has no slot on Christmas and none after 2 p.m. on Christmas Eve', async () => {
    const db = await createSeededDatabase({ clock: fixedClock('2026-12-18T15:00:00Z') });
    dbs.push(db);
    const byDay = await db.pool.query<{ day: string; last: number; n: number }>(
      `SELECT to_char(starts_at AT TIME ZONE $1, 'MM-DD') AS day,
              max(extract(hour FROM starts_at AT TIME ZONE $1))::int AS last, count(*)::int AS n
       FROM slots GROUP BY 1 ORDER BY 1`,
      [TEST_TZ],
    );
    const days = Object.fromEntries(byDay.rows.map((r) => [r.day, r]));
    expect(days['12-25']).toBeUndefined();
    expect(days['12-24']!.last).toBe(13);
    expect(days['12-23']!.last).toBe(17);
    expect(days['12-31']!.last).toBe(13);
    expect(days['01-01']).toBeUndefined();
  });
});
