import { describe, expect, it } from 'vitest';
import { addDays, formatInZone, isoInZone, localParts, zonedTime } from './time.js';

const NY = 'America/New_York';

describe('time zones', () => {
  it('maps local wall time to the instant, on both sides of a DST change', () => {
    expect(zonedTime({ year: 2026, month: 12, day: 8, hour: 10 }, NY).toISOString()).toBe('2026-12-08T15:00:00.000Z');
    expect(zonedTime({ year: 2027, month: 3, day: 15, hour: 10 }, NY).toISOString()).toBe('2027-03-15T14:00:00.000Z');
    // The Sunday clocks jump: 8:00 is already daylight time.
    expect(zonedTime({ year: 2027, month: 3, day: 14, hour: 8 }, NY).toISOString()).toBe('2027-03-14T12:00:00.000Z');
  });

  it('writes instants as ISO with the offset in force then', () => {
    expect(isoInZone(new Date('2026-12-08T15:00:00Z'), NY)).toBe('2026-12-08T10:00:00-05:00');
    expect(isoInZone(new Date('2027-07-01T14:30:00Z'), NY)).toBe('2027-07-01T10:30:00-04:00');
    expect(isoInZone(new Date('2027-07-01T14:30:00Z'), 'UTC')).toBe('2027-07-01T14:30:00+00:00');
    expect(isoInZone(new Date('2027-07-01T14:30:00Z'), 'Asia/Kolkata')).toBe('2027-07-01T20:00:00+05:30');
  });

  it('reads local calendar fields and adds days across month ends', () => {
    expect(localParts(new Date('2026-12-01T03:00:00Z'), NY)).toMatchObject({
      year: 2026,
      month: 11,
      day: 30,
      hour: 22,
      weekday: 1,
    });
    expect(addDays({ year: 2026, month: 12, day: 30 }, 3)).toEqual({ year: 2027, month: 1, day: 2, weekday: 6 });
    expect(formatInZone('2026-12-08T15:00:00Z', NY)).toBe('Tue, Dec 8, 10:00 AM EST');
  });
});
