import { localParts } from '../../core/time.js';

/**
 * The business's calendar, as the "Business hours" and "Holiday hours" help articles state it:
 * visits start on the hour within the weekly opening hours, never on the six public holidays, and
 * end early on December 24 and 31. The seed creates slots from it, the booking tool checks against
 * it and the planner reads its hours, so a visit is never offered on a day the help centre says we
 * are closed.
 */

export type LocalDate = { year: number; month: number; day: number };

/** The crews whose hours the calendar offers, each one visit at a time. */
export const CREWS = ['crew-a', 'crew-b'] as const;

/** How many days ahead (from tomorrow) there are slots to book. */
export const SLOT_DAYS = 14;

/** Opening hours, local time: [first start hour, last start hour] by weekday (0 = Sunday). */
export const OPENING_HOURS: Readonly<Record<number, readonly [number, number] | undefined>> = {
  1: [8, 17],
  2: [8, 17],
  3: [8, 17],
  4: [8, 17],
  5: [8, 17],
  6: [9, 13],
};

const weekHours = Object.values(OPENING_HOURS).filter((h): h is readonly [number, number] => Boolean(h));
/** The earliest and latest start hour of any day of the week: what a bare "at 9" may mean. */
export const FIRST_START_HOUR = Math.min(...weekHours.map((h) => h[0]));
export const LAST_START_HOUR = Math.max(...weekHours.map((h) => h[1]));

/** Start times to suggest when a customer names a day but no time, by the part of the day they said. */
export const SUGGESTED_START_HOURS: Readonly<Record<'morning' | 'afternoon' | 'any', readonly number[]>> = {
  morning: [FIRST_START_HOUR, FIRST_START_HOUR + 2],
  afternoon: [12, 14],
  any: [9, 11, 14],
};

/** Day of month of the n-th `weekday` (0 = Sunday) of a month; n = -1 for the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return lastDay - ((last - weekday + 7) % 7);
}

/** A day the business is closed, with the names customers call it by (the first is how we write it). */
export type ClosedDay = LocalDate & { names: readonly string[] };

/** The days the business is closed in `year`. */
export function closedDays(year: number): ClosedDay[] {
  return [
    { year, month: 1, day: 1, names: ["New Year's Day", "New Year's", 'New Years'] },
    { year, month: 5, day: nthWeekday(year, 5, 1, -1), names: ['Memorial Day'] }, // last Monday of May
    { year, month: 7, day: 4, names: ['Independence Day', 'Fourth of July', '4th of July'] },
    { year, month: 9, day: nthWeekday(year, 9, 1, 1), names: ['Labor Day'] }, // first Monday of September
    { year, month: 11, day: nthWeekday(year, 11, 4, 4), names: ['Thanksgiving Day', 'Thanksgiving'] }, // 4th Thursday
    { year, month: 12, day: 25, names: ['Christmas Day', 'Christmas', 'Xmas'] },
  ];
}

export const holidays = closedDays;

const same = (a: LocalDate, b: LocalDate) => a.year === b.year && a.month === b.month && a.day === b.day;

export const isClosedDay = (d: LocalDate): boolean => closedDays(d.year).some((h) => same(h, d));

/** A day the business closes early: the last hour a visit may start, and the names customers call it by. */
export type EarlyCloseDay = LocalDate & { lastStart: number; names: readonly string[] };

/** The days of `year` the business closes early (at 14:00: the last one-hour start is 13:00). */
export function earlyCloseDays(year: number): EarlyCloseDay[] {
  return [
    { year, month: 12, day: 24, lastStart: 13, names: ['Christmas Eve', 'Xmas Eve'] },
    { year, month: 12, day: 31, lastStart: 13, names: ["New Year's Eve", 'New Years Eve', 'NYE'] },
  ];
}

/** The last hour a visit may start, or undefined when the day keeps its usual hours. */
export function earlyCloseLastStart(d: LocalDate): number | undefined {
  return earlyCloseDays(d.year).find((e) => e.month === d.month && e.day === d.day)?.lastStart;
}

const weekdayOf = (d: LocalDate) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();

/** [first start hour, last start hour] of a local day, holidays and early closing applied; undefined when closed. */
export function openingHours(d: LocalDate): readonly [number, number] | undefined {
  const hours = OPENING_HOURS[weekdayOf(d)];
  if (!hours || isClosedDay(d)) return undefined;
  return [hours[0], Math.min(hours[1], earlyCloseLastStart(d) ?? hours[1])];
}

/**
 * The last hour a visit of `durationMinutes` may start on `d` and still end by closing (a visit holds whole
 * crew-hours: 90 minutes take two); undefined when the day is closed or too short for it.
 */
export function lastStartHour(d: LocalDate, durationMinutes: number): number | undefined {
  const hours = openingHours(d);
  if (!hours) return undefined;
  const last = hours[1] - Math.ceil(durationMinutes / 60) + 1;
  return last >= hours[0] ? last : undefined;
}

/** Whether a visit may start at `at` (on the hour, within that day's opening hours). */
export function isOpen(at: Date, timeZone: string): boolean {
  const local = localParts(at, timeZone);
  const hours = openingHours(local);
  return Boolean(hours) && local.minute === 0 && local.hour >= hours![0] && local.hour <= hours![1];
}

/** "Mon-Fri 8:00-17:00, Sat 9:00-13:00": the weekly hours in one line, so descriptions can't drift. */
export function describeOpeningHours(): string {
  const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const groups: { from: number; to: number; hours: string }[] = [];
  for (let d = 0; d < 7; d++) {
    const h = OPENING_HOURS[d];
    if (!h) continue;
    const hours = `${h[0]}:00-${h[1]}:00`;
    const last = groups[groups.length - 1];
    if (last && last.to === d - 1 && last.hours === hours) last.to = d;
    else groups.push({ from: d, to: d, hours });
  }
  return groups.map((g) => `${names[g.from]}${g.to > g.from ? `-${names[g.to]}` : ''} ${g.hours}`).join(', ');
}
