import { describe, expect, it } from 'vitest';
import { lastStartHour } from '../../../schema/business/calendar.js';
import { matchServices } from './analysis/services.js';
import { extractWhen, withLastStart } from './analysis/when.js';
import { makeContext, NOW, plan, SEED_SERVICES, TZ } from './testing.js';

// Day and time forms from outsider-6b (evals/golden/outsider-6b.json), one mechanism each. NOW is Monday Dec 7.

const at = (iso: string) => new Date(iso).toISOString();
const SATURDAY_DEC_12 = '2026-12-12T15:00:00.000Z';
const startOf = (t: { calls: { name: string; args: Record<string, unknown> }[] }) =>
  t.calls.find((c) => c.name === 'book_slot')?.args.start_time as string | undefined;

describe('days of the month in words', () => {
  it('reads "<weekday> the fifteenth" as that day, its weekday kept to check against it', () => {
    const w = extractWhen('tuesday the fifteenth at 10am', NOW, TZ);
    expect(w.date).toEqual({ year: 2026, month: 12, day: 15 });
    expect(w.conflict).toBeUndefined();
    expect(extractWhen('friday the twenty-first at 9am', NOW, TZ).conflict).toMatchObject({ said: 5 });
  });
  it('reads "the twenty-second" without a weekday, but not "the first" (a pick from a list)', () => {
    expect(extractWhen('can you do the twenty-second at 9', NOW, TZ).date).toEqual({ year: 2026, month: 12, day: 22 });
    expect(extractWhen('the first works for me', NOW, TZ).date).toBeUndefined();
    expect(extractWhen('monday the first thing', NOW, TZ).date).toMatchObject({ day: 7 });
  });
});

describe('times said loosely ("noonish", "9ish")', () => {
  it('reads the time meant, and the meridiem only when it was said', () => {
    expect(extractWhen('thursday, noonish?', NOW, TZ).time).toEqual({ hour: 12, minute: 0 });
    expect(extractWhen('thursday 9ish', NOW, TZ).time).toEqual({ hour: 9, minute: 0 });
    expect(extractWhen('wednesday three-ish', NOW, TZ).time).toEqual({ hour: 15, minute: 0 });
    expect(extractWhen('friday at 10am-ish', NOW, TZ).time).toEqual({ hour: 10, minute: 0 });
    // 7 could be morning or evening, and visits start neither at 7 AM nor 7 PM: asked.
    expect(extractWhen('friday 7ish', NOW, TZ).ambiguous).toBeDefined();
  });
});

describe('"the one after that": the weekday just named, a week on', () => {
  it('replaces the day it counts from', () => {
    const w = extractWhen('not this coming tuesday, the one after that. 9am?', SATURDAY_DEC_12, TZ);
    expect(w.date).toEqual({ year: 2026, month: 12, day: 22 });
    expect(w.time).toEqual({ hour: 9, minute: 0 });
    expect(extractWhen('not friday, the one after, 10am', NOW, TZ).date).toMatchObject({ day: 18 });
  });
  it('wins over a holiday mentioned on the way ("for xmas")', () => {
    const w = extractWhen('before xmas. not this coming tuesday, the one after that at 9am', SATURDAY_DEC_12, TZ);
    expect(w.date).toMatchObject({ day: 22 });
  });
  it('after a date rather than a weekday, is left unread (next day or next month?)', () => {
    expect(extractWhen('the 15th or the one after', NOW, TZ).date).toMatchObject({ day: 15 });
  });
});

describe("the day's first and last start", () => {
  it('"as early as you open" is that day\'s opening from the calendar', () => {
    expect(extractWhen('saturday, as early as you open?', NOW, TZ).time).toEqual({ hour: 9, minute: 0 });
    expect(extractWhen('wednesday when you open', NOW, TZ).time).toEqual({ hour: 8, minute: 0 });
  });
  it('the last start depends on how long the visit takes', () => {
    const thursday = { year: 2026, month: 12, day: 10 };
    expect(lastStartHour(thursday, 60)).toBe(17);
    expect(lastStartHour(thursday, 90)).toBe(16);
    expect(lastStartHour({ year: 2026, month: 12, day: 12 }, 240)).toBe(10);
    expect(lastStartHour({ year: 2026, month: 12, day: 13 }, 60)).toBeUndefined();
    const w = extractWhen('your last slot on thursday', NOW, TZ);
    expect(w.part).toMatchObject({ kind: 'last' });
    expect(w.time).toBeUndefined();
    expect(withLastStart(w, 120).time).toEqual({ hour: 16, minute: 0 });
  });
  it('a request for the last slot books the last start of that service', () => {
    const t = plan(makeContext(), 'faucet repair please, whats your last slot on thursday? ill take that one');
    expect(at(startOf(t)!)).toBe(at('2026-12-10T16:00:00-05:00'));
  });
  it('"since my last appointment" names a visit had, not a start', () => {
    expect(extractWhen('thursday please, same crew as my last appointment.', NOW, TZ).part).toBeUndefined();
  });
  it('only asking what the last slot is books nothing', () => {
    const t = plan(makeContext(), 'what time is your last slot on thursday for a faucet repair?');
    expect(t.calls.filter((c) => c.name === 'book_slot')).toEqual([]);
  });
});

describe('services named by what they involve', () => {
  const ids = (text: string) => matchServices(text, SEED_SERVICES).matches.map((s) => s.id);
  it('skirting boards and behind the sofa are the deep clean; frames and a mirror hung are the handyman', () => {
    expect(ids('need the skirting boards done and behind the sofa')).toEqual(['svc_deep_clean']);
    expect(ids('a few picture frames and a big mirror hung up')).toEqual(['svc_handyman_hour']);
  });
});
