import { describe, expect, it } from 'vitest';
import { CREWS, SLOT_DAYS } from '../business/calendar.js';
import { CUSTOMERS } from './customers.js';
import { SERVICES } from './services.js';
import { candidateDays } from './visits.js';

describe('visits on customers own calendars', () => {
  it('name a known service and crew, within the days the seed lays out slots for', () => {
    for (const c of CUSTOMERS) {
      for (const v of c.visits ?? []) {
        expect(
          SERVICES.some((s) => s.id === v.service_id),
          `${c.id} ${v.service_id}`,
        ).toBe(true);
        expect(CREWS as readonly string[], c.id).toContain(v.crew);
        expect(v.in_days, c.id).toBeGreaterThanOrEqual(1);
        expect(v.in_days, c.id).toBeLessThanOrEqual(SLOT_DAYS);
      }
    }
  });

  it('are carried by every customer added after the first one with a calendar of its own', () => {
    // A later customer without one would join the dealt bookings and reshuffle who holds each.
    const first = CUSTOMERS.findIndex((c) => c.visits);
    expect(first).toBeGreaterThan(0);
    expect(
      CUSTOMERS.slice(first)
        .filter((c) => !c.visits)
        .map((c) => c.id),
    ).toEqual([]);
  });

  it('try the visit day first, then later days, then earlier ones, inside the slot days', () => {
    expect(candidateDays(4)).toEqual([4, ...range(5, SLOT_DAYS), 3, 2, 1]);
    expect(candidateDays(SLOT_DAYS)).toEqual([SLOT_DAYS, ...range(1, SLOT_DAYS - 1).reverse()]);
    expect(candidateDays(1)).toEqual(range(1, SLOT_DAYS));
    expect(candidateDays(SLOT_DAYS + 3)[0]).toBe(SLOT_DAYS);
    expect(new Set(candidateDays(7)).size).toBe(SLOT_DAYS);
  });
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
