/**
 * The business's holiday calendar, as the "Holiday hours" help article states it: closed on six
 * public holidays, closing at 2:00 p.m. on December 24 and 31. Slots follow it, so the agent can't
 * offer a visit on a day the help centre says we are closed.
 */

type LocalDate = { year: number; month: number; day: number };

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

export function closedDays(year: number): LocalDate[] {
  return [
    { year, month: 1, day: 1 }, // New Year's Day
    { year, month: 5, day: nthWeekday(year, 5, 1, -1) }, // Memorial Day: last Monday of May
    { year, month: 7, day: 4 }, // Independence Day
    { year, month: 9, day: nthWeekday(year, 9, 1, 1) }, // Labor Day: first Monday of September
    { year, month: 11, day: nthWeekday(year, 11, 4, 4) }, // Thanksgiving: fourth Thursday of November
    { year, month: 12, day: 25 }, // Christmas Day
  ];
}

const same = (a: LocalDate, b: LocalDate) => a.year === b.year && a.month === b.month && a.day === b.day;

export const isClosedDay = (d: LocalDate): boolean => closedDays(d.year).some((h) => same(h, d));

/** The last hour a visit may start, or undefined when the day keeps its usual hours. */
export function earlyCloseLastStart(d: LocalDate): number | undefined {
  // Closing at 14:00: the last one-hour start is 13:00.
  return d.month === 12 && (d.day === 24 || d.day === 31) ? 13 : undefined;
}
