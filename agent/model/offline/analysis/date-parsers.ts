// English only: the root module loads every locale chrono has (about 3 MB of a worker's memory).
import * as chrono from 'chrono-node/en';
import { addDays } from '../../../../core/time.js';
import { closedDays } from '../../../../schema/business/calendar.js';

/*
 * chrono-node extended through its own parser hooks for the day forms customers use that chrono
 * reads wrongly or not at all: "the Thursday after next", "the Wednesday after that" (after a day
 * just mentioned), a weekday with a day of the month ("thurs 17th", "Monday the 15th") and the
 * holidays the calendar names ("christmas day", "new years"), and a day of the month with a weekday after it
 * ("the 14th thursday"). The
 * weekday stays a known component next to the day, so a weekday that contradicts its date can be
 * asked about instead of silently dropped.
 */

type Day = { year: number; month: number; day: number };

/** On a day read relative to another day said before it: that later day is the one meant. */
export const RELATIVE_TAG = 'planner/relativeToEarlierDay';

const WEEKDAY = String.raw`(sun|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat)(?:day|nesday|sday|rsday|urday)?\.?`;
const WEEKDAY_INDEX: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const weekdayOf = (word: string) => WEEKDAY_INDEX[word.toLowerCase().slice(0, 3)]!;
const dayWeekday = (d: Day) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();

/** The first `weekday` strictly after `from`. */
function nextWeekdayAfter(from: Day & { weekday?: number }, weekday: number): Day {
  const w = from.weekday ?? dayWeekday(from);
  return addDays(from, (weekday - w + 7) % 7 || 7);
}

/** The next `day` of a month from `today` on (this month if not passed, else the next month that has it). */
function nextDayOfMonth(today: Day, day: number): Day | undefined {
  let { year, month } = today;
  for (let i = 0; i < 3; i++) {
    if (i > 0 || day >= today.day) {
      const probe = new Date(Date.UTC(year, month - 1, day));
      if (probe.getUTCDate() === day) return { year, month, day };
    }
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return undefined;
}

export interface DateReaderOptions {
  /** Today in the business zone. */
  today: Day & { weekday: number };
  /** The day under discussion (a request just made), for "the Tuesday after that" with no day before it. */
  anchor?: Day;
}

/** A name as customers write it: any case, the apostrophe optional, spaces flexible. */
const namePattern = (name: string) =>
  name
    .toLowerCase()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/'/g, "['’]?")
    .replace(/\s+/g, String.raw`\s+`);

/** The holiday names of the calendar, longest first so "christmas day" wins over "christmas". */
const HOLIDAY_NAMES = closedDays(2000)
  .flatMap((d) => d.names)
  .sort((a, b) => b.length - a.length);

/** The next day (today included) the calendar calls `name`. */
function nextHoliday(today: Day, said: string): Day | undefined {
  const key = said.toLowerCase().replace(/['’]/g, '').replace(/\s+/g, ' ');
  for (const year of [today.year, today.year + 1]) {
    const d = closedDays(year).find((c) => c.names.some((n) => n.toLowerCase().replace(/'/g, '') === key));
    if (d && (d.month > today.month || (d.month === today.month && d.day >= today.day) || year > today.year))
      return { year: d.year, month: d.month, day: d.day };
  }
  return undefined;
}

const components = (d: Day, weekday?: number) => ({
  year: d.year,
  month: d.month,
  day: d.day,
  ...(weekday !== undefined ? { weekday } : {}),
});

/** A chrono parser (the casual English one) with the parsers above in front of its own. */
export function dateReader(opts: DateReaderOptions): chrono.Chrono {
  const reader = chrono.casual.clone();
  const base = chrono.casual;
  reader.parsers.unshift(
    {
      // "christmas day", "new years": the holidays by the names the calendar gives them.
      pattern: () => new RegExp(String.raw`\b(?:${HOLIDAY_NAMES.map(namePattern).join('|')})\b`, 'i'),
      extract: (_ctx, m) => {
        const d = nextHoliday(opts.today, m[0]);
        return d ? components(d) : null;
      },
    },
    {
      // "the thursday after next": the coming one, then a week on.
      pattern: () => new RegExp(String.raw`\b(?:the\s+)?${WEEKDAY}\s+after\s+next\b`, 'i'),
      extract: (_ctx, m) => components(addDays(nextWeekdayAfter(opts.today, weekdayOf(m[1]!)), 7)),
    },
    {
      // "the wednesday after that": after the last day named before it, or the day under discussion.
      pattern: () => new RegExp(String.raw`\b(?:the\s+)?${WEEKDAY}\s+after\s+that(?:\s+one)?\b`, 'i'),
      extract: (ctx, m) => {
        const before = base
          .parse(ctx.text.slice(0, m.index), ctx.reference.instant, { forwardDate: true })
          .filter((r) => r.start.isCertain('day') || r.start.isCertain('weekday'))
          .pop();
        const from = before
          ? { year: before.start.get('year')!, month: before.start.get('month')!, day: before.start.get('day')! }
          : opts.anchor;
        if (!from) return null;
        // Tagged so the reader takes this day over the one it counts from ("this wednesday won't work, the
        // wednesday after that"): the earlier day is only the reference.
        return ctx.createParsingComponents(components(nextWeekdayAfter(from, weekdayOf(m[1]!)))).addTag(RELATIVE_TAG);
      },
    },
    {
      // "thurs 17th", "monday the 15th", "Friday the 18th of December" is left to chrono (it has a month).
      pattern: () =>
        new RegExp(
          String.raw`\b${WEEKDAY},?\s+(?:the\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th))\b` +
            // Not a time ("monday 10am") and not a day chrono reads with its month ("friday the 18th of dec").
            String.raw`(?!\s*(?::\d|am\b|pm\b|a\.m|p\.m|o'?clock|of\b|` +
            '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))',
          'i',
        ),
      extract: (_ctx, m) => {
        const d = nextDayOfMonth(opts.today, Number(m[2] ?? m[3]));
        return d ? components(d, weekdayOf(m[1]!)) : null;
      },
    },
    {
      // "the 14th thursday", "on the 9th, wednesday": the day of the month said first, the weekday after it.
      pattern: () =>
        new RegExp(
          String.raw`\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th),?\s+(?:(?:on\s+)?(?:a|the)\s+)?${WEEKDAY}(?=\W|$)`,
          'i',
        ),
      extract: (_ctx, m) => {
        const d = nextDayOfMonth(opts.today, Number(m[1]));
        return d ? components(d, weekdayOf(m[2]!)) : null;
      },
    },
  );
  return reader;
}

/** A date said together with a weekday that is not its weekday ("Monday the 15th" when the 15th is a Tuesday). */
export function weekdayConflict(r: chrono.ParsedResult): { said: number; date: Day } | undefined {
  const s = r.start;
  if (!s.isCertain('weekday') || !s.isCertain('day')) return undefined;
  const date = { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! };
  const said = s.get('weekday')!;
  return dayWeekday(date) === said ? undefined : { said, date };
}
