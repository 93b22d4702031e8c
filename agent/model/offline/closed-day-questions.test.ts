import { describe, expect, it } from 'vitest';
import { extractWhen } from './analysis/when.js';
import { callNames, makeContext, NOW, plan, SEED_SERVICES, TZ } from './testing.js';

// A question about a day we are closed is answered by the calendar (schema/business/calendar.ts),
// whatever article the rest of the question finds; a request for that day is a booking matter.
// The clock is Monday, Dec 7, 9:00.

const ctx = makeContext({ services: SEED_SERVICES });

describe('questions about a closed day', () => {
  it.each([
    'in theory could u do a handyman hour on a sunday? asking for future',
    'would a tv mount on christmas day even be possible?',
    'nearly booked windows for sunday lol, whats the closest day u could do instead?',
    'is a deep clean on new years day a thing or r u closed',
  ])('%s → closed, the nearest open days, nothing proposed', (message) => {
    const t = plan(ctx, message);
    expect(callNames(t)).toEqual([]);
    expect(t.content).toMatch(/^We're closed on /);
    expect(t.content).toMatch(/nearest days? we're open: .*\b(Mon|Sat|Tue|Thu|Fri|Wed)\b/);
  });

  it.each([
    // an open day: the help centre's answer, no closed note
    'could u do a handyman hour on a saturday?',
    'how much is a deep clean on tuesday?',
    // no day at all
    'could u do a handyman hour some time?',
    // open, if shorter: the calendar names the eves too, so "christmas" in them is not Christmas Day
    'are you guys working christmas eve or is it a day off?',
    'could u fit a clean in on new years eve',
  ])('%s → no closed-day note', (message) => {
    expect(plan(ctx, message).content).not.toMatch(/We're closed/);
  });
});

describe('the days the calendar names', () => {
  it.each([
    ['christmas eve', 24],
    ['xmas eve', 24],
    ['christmas', 25],
    ['new years eve', 31],
    ["new year's eve", 31],
  ])('%s → Dec %i', (said, day) => {
    expect(extractWhen(`are you working ${said}?`, NOW, TZ).date).toEqual({ year: 2026, month: 12, day });
  });
});
