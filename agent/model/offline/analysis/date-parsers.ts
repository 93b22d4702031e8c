// English only: the root module loads every locale chrono has (about 3 MB of a worker's memory).
import * as chrono from 'chrono-node/en';
import { addDays } from '../../../../core/time.js';
import { closedDays, earlyCloseDays } from '../../../../schema/business/calendar.js';

/*
 * chrono-node extended through its own parser hooks for the day forms customers use that chrono
 * reads wrongly or not at all: "the Thursday after next", "the Wednesday after that" (after a day
 * just mentioned), a weekday with a day of the month ("thurs 17th", "Monday the 15th") and the
 * holidays the calendar names ("christmas day", "new years"), and a day of the month with a weekday after it
 * ("the 14th thursday"), the same weekday a week on ("not this tuesday, the one after that"), days of the
 * month in words ("tuesday the fifteenth") and times said loosely ("noonish", "9ish"). The
 * weekday stays a known component next to the day, so a weekday that contradicts its date can be
 * asked about instead of silently dropped.
 */

type Day = { year: number; month: number; day: number };
type ParsingContext = Parameters<chrono.Parser['extract']>[0];

/** On a day read relative to another day said before it: that later day is the one meant. */
export const RELATIVE_TAG = 'planner/relativeToEarlierDay';

const WEEKDAY = String.raw`(sun|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat)(?:day|nesday|sday|rsday|urday)?\.?`;
/** Days of the month as words ("the fifteenth", "the twenty-first"), by day. */
const UNITS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];
const ORDINAL_WORDS: Record<string, number> = Object.fromEntries([
  ...[...UNITS, 'tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth'].map(
    (w, i) => [w, i + 1] as const,
  ),
  ['seventeenth', 17],
  ['eighteenth', 18],
  ['nineteenth', 19],
  ['twentieth', 20],
  ...UNITS.map((w, i) => [`twenty ${w}`, 21 + i] as const),
  ['thirtieth', 30],
  ['thirty first', 31],
]);
/** An ordinal day word, longest first so "twenty first" wins over "first"; a hyphen or space inside. */
export const ORDINAL_DAY_WORD = Object.keys(ORDINAL_WORDS)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(' ', '[- ]'))
  .join('|');
/** The day of the month an ordinal word names: "twenty-first" → 21. */
export const ordinalDay = (word: string): number | undefined =>
  ORDINAL_WORDS[word.toLowerCase().replace(/[-\s]+/g, ' ')];

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

const HOUR_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/**
 * "noonish", "9ish", "10am-ish", "three-ish": a time said loosely is still the time meant (visits start on the
 * hour, so "about 10" and "10" ask for the same start). The meridiem is known only when it was said.
 */
function looseTime(ctx: ParsingContext, m: RegExpMatchArray): chrono.ParsingComponents | null {
  const [, midday, number, minute, meridiem] = m;
  if (midday) {
    const noon = !/night/i.test(midday);
    return ctx
      .createParsingComponents({
        hour: noon ? 12 : 0,
        minute: 0,
        meridiem: noon ? chrono.Meridiem.PM : chrono.Meridiem.AM,
      })
      .addTag(noon ? 'casualReference/noon' : 'casualReference/midnight');
  }
  const hour = HOUR_WORDS.includes(number!.toLowerCase())
    ? HOUR_WORDS.indexOf(number!.toLowerCase()) + 1
    : Number(number);
  if (!(hour >= 1 && hour <= 12)) return null;
  if (!meridiem) return ctx.createParsingComponents({ hour, minute: Number(minute ?? 0) });
  const pm = /^p/i.test(meridiem);
  return ctx.createParsingComponents({
    hour: (hour % 12) + (pm ? 12 : 0),
    minute: Number(minute ?? 0),
    meridiem: pm ? chrono.Meridiem.PM : chrono.Meridiem.AM,
  });
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

/** The days the calendar names: closed ones and those it closes early ("christmas eve"). */
const namedDays = (year: number) => [...closedDays(year), ...earlyCloseDays(year)];

/** The day names of the calendar, longest first so "christmas eve" and "christmas day" win over "christmas". */
const HOLIDAY_NAMES = namedDays(2000)
  .flatMap((d) => d.names)
  .sort((a, b) => b.length - a.length);

/** The next day (today included) the calendar calls `name`. */
function nextHoliday(today: Day, said: string): Day | undefined {
  const key = said.toLowerCase().replace(/['’]/g, '').replace(/\s+/g, ' ');
  for (const year of [today.year, today.year + 1]) {
    const d = namedDays(year).find((c) => c.names.some((n) => n.toLowerCase().replace(/'/g, '') === key));
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

/** The last day chrono reads before `index`, with its weekday when the weekday was said. */
function dayBefore(ctx: ParsingContext, index: number): { day: Day; weekday?: number } | undefined {
  const r = chrono.casual
    .parse(ctx.text.slice(0, index), ctx.reference.instant, { forwardDate: true })
    .filter((x) => x.start.isCertain('day') || x.start.isCertain('weekday'))
    .pop();
  if (!r) return undefined;
  const day = { year: r.start.get('year')!, month: r.start.get('month')!, day: r.start.get('day')! };
  return r.start.isCertain('weekday') ? { day, weekday: r.start.get('weekday')! } : { day };
}

/** A chrono parser (the casual English one) with the parsers above in front of its own. */
export function dateReader(opts: DateReaderOptions): chrono.Chrono {
  const reader = chrono.casual.clone();
  reader.parsers.unshift(
    {
      pattern: () =>
        new RegExp(
          String.raw`\b(?:(noon|midday|midnight)|(\d{1,2}|${HOUR_WORDS.join('|')})(?::([0-5]\d))?\s*` +
            String.raw`(am|pm|a\.m\.?|p\.m\.?)?)\s*-?\s*ish\b`,
          'i',
        ),
      extract: looseTime,
    },
    {
      // "christmas day", "new years": the holidays by the names the calendar gives them.
      pattern: () => new RegExp(String.raw`\b(?:${HOLIDAY_NAMES.map(namePattern).join('|')})\b`, 'i'),
      extract: (ctx, m) => {
        // "bf got an 85 inch tv for xmas": the occasion of a present, not a day for us.
        if (GIFT_FOR.test(ctx.text.slice(0, m.index))) return null;
        const d = nextHoliday(opts.today, m[0]);
        return d ? components(d) : null;
      },
    },
    {
      // "a week on thursday", "monday week": British for the coming one, then a week on.
      pattern: () =>
        new RegExp(String.raw`\b(?:(?:a|one)\s+week\s+(?:on|from)\s+${WEEKDAY}|${WEEKDAY}\s+week)(?!\s*end)\b`, 'i'),
      extract: (_ctx, m) => components(addDays(nextWeekdayAfter(opts.today, weekdayOf((m[1] ?? m[2])!)), 7)),
    },
    {
      // "a week today", "tomorrow week": British for the same day a week on.
      pattern: () => /\b(?:(?:a|one)\s+week\s+(today|tomorrow)|(today|tomorrow)\s+week)\b(?!\s*end)/i,
      extract: (_ctx, m) => components(addDays(opts.today, 7 + (/^tomorrow$/i.test(m[1] ?? m[2]!) ? 1 : 0))),
    },
    {
      // "the thursday after next": the coming one, then a week on.
      pattern: () => new RegExp(String.raw`\b(?:the\s+)?${WEEKDAY}\s+after\s+next\b`, 'i'),
      extract: (_ctx, m) => components(addDays(nextWeekdayAfter(opts.today, weekdayOf(m[1]!)), 7)),
    },
    {
      // "the wednesday after that": after the last day named before it, or the day under discussion; so is "from this
      // sat to the sat after" (the clause ends after "after").
      pattern: () =>
        new RegExp(
          String.raw`\b(?:the\s+)?${WEEKDAY}\s+after(?:\s+that(?:\s+one)?\b|(?=\s*(?:[,.;:!?]|$)|\s+instead\b))`,
          'i',
        ),
      extract: (ctx, m) => {
        const before = dayBefore(ctx, m.index!);
        const from = before?.day ?? opts.anchor;
        if (!from) return null;
        // Tagged so the reader takes this day over the one it counts from ("this wednesday won't work, the
        // wednesday after that"): the earlier day is only the reference.
        return ctx.createParsingComponents(components(nextWeekdayAfter(from, weekdayOf(m[1]!)))).addTag(RELATIVE_TAG);
      },
    },
    {
      // "the window people on the 19th - can we do the saturday before instead": the last such weekday before the
      // day named before it, or before the day under discussion ("the saturday before christmas" is chrono's).
      pattern: () =>
        new RegExp(
          String.raw`\b(?:the\s+)?${WEEKDAY}\s+before(?:\s+(?:that|it)(?:\s+one)?\b|` +
            String.raw`(?=\s*(?:[,.;:!?]|$)|\s+instead\b))`,
          'i',
        ),
      extract: (ctx, m) => {
        // The day under discussion first: in "monday's no good for the cleaning, the saturday before" the monday is
        // the booking's, which chrono alone would read as today.
        const from = opts.anchor ?? dayBefore(ctx, m.index!)?.day;
        if (!from) return null;
        const back = (dayWeekday(from) - weekdayOf(m[1]!) + 7) % 7 || 7;
        return ctx.createParsingComponents(components(addDays(from, -back))).addTag(RELATIVE_TAG);
      },
    },
    {
      // "not this coming tuesday, the one after that": the same weekday as the day just named, a week on. After
      // a date ("the 15th, or the one after") it could be the next day or the next month: left unread.
      pattern: () => /\b(?:the\s+)?one\s+after(?:\s+(?:that(?:\s+one)?|it)\b|(?=\s*(?:[,.;:!?]|$)))/i,
      extract: (ctx, m) => {
        const before = dayBefore(ctx, m.index!);
        if (!before?.weekday) return null;
        // Also tagged as chrono tags its own relative days, so that its refiner does not merge "tuesday, the one
        // after that" into one day (the Tuesday's).
        return ctx
          .createParsingComponents(components(addDays(before.day, 7), before.weekday))
          .addTag(RELATIVE_TAG)
          .addTag('result/relativeDate');
      },
    },
    {
      // "thurs 17th", "monday the 15th", "tuesday the fifteenth"; "Friday the 18th of December" is left to
      // chrono (it has a month).
      pattern: () =>
        new RegExp(
          String.raw`\b(?:on\s+)?${WEEKDAY},?\s+(?:the\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th)|` +
            // A word only after "the", and not counting something else ("monday the first thing").
            String.raw`the\s+(${ORDINAL_DAY_WORD})(?!\s+(?:thing|one|time|slot|visit|appointment|floor)\b)|` +
            // "tuesday 15": a bare number past any hour of a 12-hour clock, checked against the weekday below.
            String.raw`(1[3-9]|2\d|3[01])(?=\s*(?:[,.;!?]|$|\s+(?:same|at|for|in|instead|pls|please|then|ok)\b))|` +
            // "saturday 12 at 10": any bare number with the clock time after it is the day.
            String.raw`(\d{1,2})(?=\s+at\s+\d))\b` +
            // Not a time ("monday 10am") and not a day chrono reads with its month ("friday the 18th of dec").
            String.raw`(?!\s*(?::\d|am\b|pm\b|a\.m|p\.m|o'?clock|of\b|` +
            '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))',
          'i',
        ),
      extract: (_ctx, m) => {
        const d = nextDayOfMonth(opts.today, m[4] ? ordinalDay(m[4])! : Number(m[2] ?? m[3] ?? m[5] ?? m[6]));
        // A bare number is a day of the month only when that day is the weekday named.
        if (d && (m[5] || m[6]) && new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() !== weekdayOf(m[1]!))
          return null;
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
  // With forwardDate, chrono reads a bare length of time as that long from now ("if it takes 2 hrs" → 11:00 today).
  reader.refiners.push({ refine: (_ctx, results) => results.filter((r) => !LENGTH_OF_TIME.test(r.text)) });
  return reader;
}

/** What was given or got before "for": a holiday after it is the occasion of a present. */
const GIFT_FOR =
  /\b(?:got|get|getting|bought|buying|gave|given|giving|received|gifted|present|gift)\b[^.!?]{0,60}\bfor\s+$/i;

/** A length of time said on its own ("2 hrs", "for about 3 hours"), not "in 2 hours" or "2 hours from now". */
const LENGTH_OF_TIME = new RegExp(
  String.raw`^(?:for\s+)?(?:(?:about|around|roughly|approximately|just|like)\s*~?\s*)?` +
    String.raw`(?:\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|` +
    String.raw`a few|a couple(?: of)?|few|several)` +
    String.raw`\s*(?:hours?|hrs?|h|minutes?|mins?|days?|weeks?|wks?|months?|mos?|years?|yrs?)$`,
  'i',
);

/** A date said together with a weekday that is not its weekday ("Monday the 15th" when the 15th is a Tuesday). */
export function weekdayConflict(r: chrono.ParsedResult): { said: number; date: Day } | undefined {
  const s = r.start;
  if (!s.isCertain('weekday') || !s.isCertain('day')) return undefined;
  const date = { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! };
  const said = s.get('weekday')!;
  return dayWeekday(date) === said ? undefined : { said, date };
}

/**
 * "saturday 12 possible?" when the 12th is a Saturday: the number is the day as well as it is a clock hour (noon),
 * and nothing else in the words tells which. Only a bare number up to 12 with nothing after it that makes it a time
 * or a day ("12pm", "12th", "12 at 10"), and only when that day of the month is the weekday said.
 */
export function dayOrHour(text: string, today: Day): { date: Day; hour: number } | undefined {
  const m = new RegExp(
    String.raw`\b(?<!\bat\s)${WEEKDAY}\s+(\d{1,2})(?=\s*(?:[,;!?]|\.(?!\d)|$|\s+(?:possible|ok|okay|pls|please|` +
      String.raw`works?|good|free|any good|is that|for)\b))`,
    'i',
  ).exec(text);
  const hour = m ? Number(m[2]) : NaN;
  if (!(hour >= 1 && hour <= 12)) return undefined;
  const date = nextDayOfMonth(today, hour);
  if (!date || new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() !== weekdayOf(m![1]!))
    return undefined;
  return { date, hour };
}
