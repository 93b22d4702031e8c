import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, localParts } from '../../core/time.js';
import { businessSpan, expiryAfter } from './business-time.js';
import { openingHours } from './calendar.js';

const TZ = 'America/New_York';
const NEXT_DAY_END = { kind: 'next_business_day_end' } as const;
const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

describe('expiry at the end of the next business day', () => {
  it('an overnight request waits until the end of the next working day, not four hours', () => {
    // Mon Dec 7 02:00 EST → Tue Dec 8 18:00 EST (the last visit starts at 17:00).
    expect(iso(expiryAfter(at('2026-12-07T07:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-08T23:00:00.000Z');
    // A request during opening hours gets the same deadline: the rest of today and all of tomorrow.
    expect(iso(expiryAfter(at('2026-12-07T15:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-08T23:00:00.000Z');
  });

  it('the next business day is counted in the business zone, not in UTC', () => {
    // Mon Dec 7 23:30 EST is already Tuesday in UTC; the next business day is still Tuesday.
    expect(iso(expiryAfter(at('2026-12-08T04:30:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-08T23:00:00.000Z');
  });

  it('over the weekend: Friday afternoon runs to Saturday closing (open 9-13), Saturday to Monday', () => {
    expect(iso(expiryAfter(at('2026-12-11T21:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-12T19:00:00.000Z');
    expect(iso(expiryAfter(at('2026-12-12T16:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-14T23:00:00.000Z');
    expect(iso(expiryAfter(at('2026-12-13T17:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-14T23:00:00.000Z');
  });

  it('skips holidays and keeps early closing', () => {
    // Wed Nov 25 → Thanksgiving is closed → Fri Nov 27, 18:00.
    expect(iso(expiryAfter(at('2026-11-25T15:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-11-27T23:00:00.000Z');
    // Thu Dec 24 → Christmas is closed → Sat Dec 26, 14:00.
    expect(iso(expiryAfter(at('2026-12-24T15:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-26T19:00:00.000Z');
    // Wed Dec 23 → Christmas Eve closes at 14:00.
    expect(iso(expiryAfter(at('2026-12-23T15:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-12-24T19:00:00.000Z');
  });

  it('across a DST change the deadline is 18:00 on the local clock of that day', () => {
    // Sat Mar 7 (EST) → Mon Mar 9, 18:00 EDT (UTC-4).
    expect(iso(expiryAfter(at('2026-03-07T15:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-03-09T22:00:00.000Z');
    // Sat Oct 31 (EDT) → Mon Nov 2, 18:00 EST (UTC-5).
    expect(iso(expiryAfter(at('2026-10-31T14:00:00Z'), NEXT_DAY_END, TZ))).toBe('2026-11-02T23:00:00.000Z');
  });

  it('always ends a business day after the proposal day, with only closed days in between', () => {
    fc.assert(
      fc.property(
        fc.date({ min: at('2026-01-01T00:00:00Z'), max: at('2027-12-31T00:00:00Z'), noInvalidDate: true }),
        (d) => {
          const end = expiryAfter(d, NEXT_DAY_END, TZ);
          expect(end.getTime()).toBeGreaterThan(d.getTime());
          const local = localParts(end, TZ);
          const hours = openingHours(local);
          expect(hours).toBeDefined();
          expect([local.hour, local.minute]).toEqual([hours![1] + 1, 0]);
          const start = localParts(d, TZ);
          for (let day = addDays(start, 1); ; day = addDays(day, 1)) {
            if (day.year === local.year && day.month === local.month && day.day === local.day) break;
            expect(openingHours(day), `${day.month}/${day.day} should be closed`).toBeUndefined();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('expiry after a number of business hours', () => {
  const hours = (n: number) => ({ kind: 'business_hours', hours: n }) as const;

  it('counts only opening hours: the night before opening does not count', () => {
    // Mon 02:00 + 8 business hours → Mon 16:00 EST.
    expect(iso(expiryAfter(at('2026-12-07T07:00:00Z'), hours(8), TZ))).toBe('2026-12-07T21:00:00.000Z');
    // Exactly a full day from opening ends at closing, not the next morning.
    expect(iso(expiryAfter(at('2026-12-07T13:00:00Z'), hours(10), TZ))).toBe('2026-12-07T23:00:00.000Z');
  });

  it('carries over Saturday short hours, Sunday and holidays', () => {
    // Fri 16:00: 2 h on Friday, 5 h on Saturday (9-14), 1 h on Monday → Mon 09:00.
    expect(iso(expiryAfter(at('2026-12-11T21:00:00Z'), hours(8), TZ))).toBe('2026-12-14T14:00:00.000Z');
    // Christmas Eve 12:00: 2 h until its early close, Christmas closed, Sat Dec 26 9-11.
    expect(iso(expiryAfter(at('2026-12-24T17:00:00Z'), hours(4), TZ))).toBe('2026-12-26T16:00:00.000Z');
  });

  it('across the spring DST change', () => {
    // Sat Mar 7 13:00 EST: 1 h on Saturday, then Mon Mar 9 08:00-09:00 EDT.
    expect(iso(expiryAfter(at('2026-03-07T18:00:00Z'), hours(2), TZ))).toBe('2026-03-09T13:00:00.000Z');
  });
});

describe('expiry after wall-clock minutes (APPROVAL_TTL_MINUTES)', () => {
  it('adds the minutes, whatever the hours', () => {
    expect(iso(expiryAfter(at('2026-12-07T07:00:00Z'), { kind: 'minutes', minutes: 240 }, TZ))).toBe(
      '2026-12-07T11:00:00.000Z',
    );
  });
});

describe('business span of a day', () => {
  it('runs from the first start hour to one hour after the last start, and is empty on closed days', () => {
    expect(businessSpan({ year: 2026, month: 12, day: 12 }, TZ)).toEqual({
      start: at('2026-12-12T14:00:00Z'),
      end: at('2026-12-12T19:00:00Z'),
    });
    expect(businessSpan({ year: 2026, month: 12, day: 13 }, TZ)).toBeUndefined();
    expect(businessSpan({ year: 2026, month: 12, day: 25 }, TZ)).toBeUndefined();
  });
});
