import { addDays, formatInZone, isoInZone, localParts, zonedTime } from '../../../../core/time.js';
import {
  FIRST_START_HOUR,
  LAST_START_HOUR,
  lastStartHour,
  openingHours,
  SUGGESTED_START_HOURS,
} from '../../../../schema/business/calendar.js';
import type { ParsedComponents } from 'chrono-node';
import { dateReader, dayOrHour, ORDINAL_DAY_WORD, ordinalDay, RELATIVE_TAG, weekdayConflict } from './date-parsers.js';
import { PART_OF_DAY_PHRASES, partOfDay, type PartOfDay } from './parts-of-day.js';

/** A wall-clock date and time in the business zone. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}
export interface LocalTime {
  hour: number;
  minute: number;
}
export type LocalDateTime = LocalDate & LocalTime;

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** Minutes the zone is ahead of UTC at `at` (EST = -300). */
export function zoneOffsetMinutes(at: Date, timeZone: string): number {
  const p = localParts(at, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return Math.round((asUtc - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

/** An instant as ISO 8601 with the zone's offset at that instant: 2026-12-08T10:00:00-05:00. */
export { isoInZone };

/** The ISO start time for a wall-clock time in the zone (DST-aware). */
export function localToIso(local: LocalDateTime, timeZone: string): string {
  return isoInZone(zonedTime(local, timeZone), timeZone);
}

export function localOf(iso: string, timeZone: string): LocalDateTime & { weekday: number } {
  const p = localParts(new Date(iso), timeZone);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, weekday: p.weekday };
}

/** "Tue, Dec 8, 10:00 AM EST" */
export function formatWhen(iso: string, timeZone: string): string {
  return formatInZone(new Date(iso), timeZone);
}

/** "Tue, Dec 8" */
export function formatDay(d: LocalDate, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric' }).format(
    zonedTime({ ...d, hour: 12 }, timeZone),
  );
}

/** "10:00 AM" */
export function formatClock(t: LocalTime): string {
  const h12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  return `${h12}:${pad(t.minute)} ${t.hour < 12 ? 'AM' : 'PM'}`;
}

export type TimeHint = 'morning' | 'afternoon' | 'evening';

/** What the customer said about when, resolved against "now" in the business zone. */
/** A clock time taken back and said again: "… no wait, make it 3", "… actually at 4pm". */
const RETIMED = new RegExp(
  String.raw`\b(?:no wait|wait|actually|scratch that|sorry|i mean|correction|on second thought)\b[^.!?]{0,40}?` +
    String.raw`\b(?:make it|make that|at|say|rather|better)\s+(\d{1,2})(?::([0-5]\d))?\s*` +
    String.raw`(am|pm|a\.m\.|p\.m\.)?(?![\d:/])`,
  'i',
);

export interface WhenMention {
  /** A specific calendar day was given (weekday, date, "tomorrow"...). */
  date?: LocalDate;
  /** The day came from a bare weekday ("Tuesday"), so it may roll a week forward. */
  weekdayOnly?: boolean;
  /** A clock time was given and is unambiguous. */
  time?: LocalTime;
  /** A clock time without am/pm that could be either: the candidates, in hours. */
  ambiguous?: { hour: number; minute: number; options: [LocalTime, LocalTime] };
  /** "morning"/"afternoon" without a clock time. */
  hint?: TimeHint;
  /** "next week"/"this weekend": a period, not a day. */
  vague?: string;
  /** A weekday said with a date that falls on another weekday: ask, never guess. */
  conflict?: { said: number; date: LocalDate };
  /** Two or more days offered as alternatives ("thursday at 10 - or friday at 10"): ask which, never pick. */
  alternatives?: LocalDate[];
  /** A part of the day too vague to pick a start from ("late morning", "end of the day"). */
  vagueTime?: string;
  /** The part of the day named instead of a clock time (see parts-of-day.ts). */
  part?: PartOfDay;
  /** The day is any such day ("on a weekday", "on a sunday"): `date` is the next one, which nobody named. */
  anyDay?: boolean;
  /** "saturday 12" when the 12th is a Saturday: the day with no time, or that weekday at the hour. Ask. */
  dayOrHour?: { date: LocalDate; time: LocalTime };
  /** Text spans chrono recognised (for debugging and masking). */
  spans: string[];
}

/** Hide things that look like dates or times but are not: emails, phone numbers, postal codes, prices, ids. */
export function maskNonDates(text: string): string {
  const blank = (s: string) => ' '.repeat(s.length);
  return (
    text
      .replace(/[^\s@<>(),;:"]+@[^\s@<>(),;:"]+/g, blank)
      .replace(/(?:\+?\d[\d().\s-]{5,}\d)(?=\D|$)/g, (s) => ((s.match(/\d/g)?.length ?? 0) >= 7 ? blank(s) : s))
      .replace(/\b[A-Z]{2}\s?\d{4}\b/g, blank)
      .replace(/\$\s?\d[\d,.]*/g, blank)
      .replace(/\b[A-Z]{3}-\d+\b/g, blank)
      .replace(/\b(?:apt|apartment|unit|suite|ste)\.?\s*#?\s*[\w-]+/gi, blank)
      .replace(/#\s?\d+\w*/g, blank)
      // "your saturday hours": when we are open on that weekday, not a day asked for.
      .replace(SAID_OF_HOURS, blank)
      // "we adopted a kitten on saturday": the day something of theirs happened, not one for a visit.
      .replace(THEIR_PAST_DAY, (all, day: string) => all.slice(0, all.length - day.length) + blank(day))
  );
}

const THEIR_PAST_DAY = new RegExp(
  String.raw`\b(?:we|i)\s+(?:just\s+)?(?!(?:booked|scheduled|rescheduled|arranged|confirmed|requested|reserved|` +
    String.raw`cancel+ed|asked|changed|moved|wanted|needed|hoped|planned)\b)(?![a-z]*eed\b)[a-z]{2,}ed\b` +
    String.raw`[^.!?,;]{0,40}?\b` +
    String.raw`(on (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b`,
  'gi',
);

/** "the latest start on a weekday", "every saturday": any such day, which names none of them. */
const ANY_SUCH_DAY = new RegExp(
  String.raw`\b(?:a|any|every|most) (?:week ?day|weekend day|(?:mon|tues|wednes|thurs|fri|satur|sun)day|` +
    String.raw`mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b`,
  'i',
);

const SAID_OF_HOURS = new RegExp(
  String.raw`\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?)(?:'s)?\s+` +
    String.raw`(?:opening\s+|business\s+|office\s+)?hours\b`,
  'gi',
);

/** "the thursday after next", "the saturday before": a day counted from another, though it says "after" or "before". */
const COUNTED_FROM_A_DAY = new RegExp(
  String.raw`\b(?:after (?:next|that)|one after)\b|` +
    String.raw`^(?:the )?(?:sun|mon|tue|wed|thu|fri|sat)\w*\.? (?:after|before)(?: that(?: one)?| it)?$`,
  'i',
);
const IGNORED_SPAN = /\b(now|ago|later|earlier|asap|second|sec|hours?|minutes?|mins?|last|yesterday|before|after)\b/i;
/** "for a week", "for 3 days": how long something has been so, not a day. */
const DURATION_SPAN = new RegExp(
  String.raw`^for (?:a|an|one|two|three|four|five|a few|a couple of|several|\d+|the (?:past|last)(?: \w+)?) ` +
    String.raw`(?:days?|weeks?|months?)$`,
  'i',
);
/** "push it back a day", "bring it forward two weeks": a count of days said alone is how far, not which day. */
const COUNT_SPAN = /^(?:a|an|one|two|three|four|a few|a couple(?: of)?|several|\d+) (?:days?|weeks?)$/i;
const VAGUE_SPAN =
  /^(?:(?:next|this|the following|in (?:a|one|two|\d+)) (?:week|weekend|month)s?|next month|this weekend|weekend)$/i;

/** A span of days followed by a clock time and no day in it: "next week at 3pm", "this weekend around 10". */
const PERIOD_THEN_TIME =
  /^((?:next|this|the following) (?:week|weekend|month))\b(?!\s+(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun|the\s+\d))/i;

/**
 * Resolve an hour written without am/pm: keep the reading that falls in business hours;
 * none or both → ambiguous.
 */
/**
 * A clock time as said: with am/pm as written (an hour of 1–12), without it only when the business hours leave one
 * reading ("3" is 3 PM, "7" could be either). Undefined otherwise.
 */
export function saidClock(hour: number, minute: number, meridiem?: string): LocalTime | undefined {
  if (!(hour >= 1 && hour <= 12)) return undefined;
  if (meridiem) return { hour: (hour % 12) + (meridiem.toLowerCase().startsWith('p') ? 12 : 0), minute };
  const t = resolveBareHour(hour, minute);
  return 'options' in t ? undefined : t;
}

export function resolveBareHour(hour: number, minute: number): LocalTime | { options: [LocalTime, LocalTime] } {
  if (hour === 0 || hour >= 13) return { hour, minute };
  if (hour === 12) return { hour: 12, minute };
  const inHours = (h: number) => h >= FIRST_START_HOUR && h <= LAST_START_HOUR;
  const am = { hour, minute };
  const pm = { hour: hour + 12, minute };
  const fits = [am, pm].filter((t) => inHours(t.hour));
  if (fits.length === 1) return fits[0]!;
  return { options: [am, pm] };
}

/**
 * Parse dates and times with chrono-node, the reference instant being `now` as seen in the
 * business zone, `forwardDate` on. Only components the customer actually said are reported:
 * chrono's implied values (today's date for "10am", noon for "Tuesday") are dropped.
 */
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const COUNT: Record<string, number> = { a: 1, one: 1, '1': 1, two: 2, '2': 2, three: 3, '3': 3 };
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Week arithmetic chrono reads as two separate dates: "a week from tomorrow", "two weeks from
 * Monday", "in two weeks on Monday", "Monday in two weeks". Rewritten to an explicit date first.
 */
export function resolveWeekPhrases(
  text: string,
  today: { year: number; month: number; day: number; weekday: number },
): string {
  const day = (offset: number) => {
    const d = addDays(today, offset);
    return `${MONTHS[d.month - 1]} ${d.day}, ${d.year}`;
  };
  const untilWeekday = (name: string) => {
    const w = WEEKDAYS.indexOf(name.toLowerCase());
    return (w - today.weekday + 7) % 7 || 7; // the next one, never today
  };
  return text
    .replace(
      new RegExp(
        String.raw`\b(a|one|two|three|[123])\s+weeks?\s+from\s+` +
          String.raw`(tomorrow|today|sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b`,
        'gi',
      ),
      (_, n: string, anchor: string) => {
        const base = /tomorrow/i.test(anchor) ? 1 : /today/i.test(anchor) ? 0 : untilWeekday(anchor);
        return day(base + 7 * COUNT[n.toLowerCase()]!);
      },
    )
    .replace(
      /\bin\s+(a|one|two|three|[123])\s+weeks?\s+on\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/gi,
      (_, n: string, name: string) => day(untilWeekday(name) + 7 * (COUNT[n.toLowerCase()]! - 1)),
    )
    .replace(
      /\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\s+in\s+(a|one|two|three|[123])\s+weeks?\b/gi,
      (_, name: string, n: string) => day(untilWeekday(name) + 7 * (COUNT[n.toLowerCase()]! - 1)),
    );
}

/** Weekday abbreviations chrono does not know ("tues", "weds"), spelled out. */
function spellOutWeekdays(text: string): string {
  return spellOutHours(text.replace(/\btues\b\.?/gi, 'tuesday').replace(/\bweds\b\.?/gi, 'wednesday'));
}

const HOUR_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
/** Where a clock hour can end: its am/pm, "o'clock", a part of the day, the end of a clause. */
const HOUR_END =
  String.raw`(?=\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock|in the (?:morning|afternoon|evening)|[.,!?;)]|$)|` +
  String.raw`\s+(?:pls|please|plz|thanks|thx|ty|if|on|this|next|tomorrow|instead|ok|works|sharp|or|and|then)\b)`;
const HOUR_WORD = new RegExp(
  String.raw`\b(at|around|about|by|from|till|until|to)\s+(one|two|three|four|five|six|seven|eight|nine|ten|` +
    String.raw`eleven|twelve)${HOUR_END}`,
  'gi',
);
/** "can it be 11 instead of 9?", "make it 3": an hour said as what the visit is to be. */
const BE_HOUR = new RegExp(String.raw`\b(?:(it|that|this) be|(make) it)\s+(?=\d{1,2}(?::\d{2})?${HOUR_END})`, 'gi');

/**
 * Clock hours chrono does not read: "at nine", "at two in the afternoon", "can it be 11". Written as digits (or
 * with "at"), padded to the same length so positions in the text stay where they were.
 */
function spellOutHours(text: string): string {
  return text
    .replace(HOUR_WORD, (m, lead: string, word: string) =>
      `${lead} ${HOUR_WORDS[word.toLowerCase()]}`.padEnd(m.length, ' '),
    )
    .replace(BE_HOUR, (m, who?: string, make?: string) => (who ? `${who} at ` : `${make} at `).padEnd(m.length, ' '));
}

/** Parts of the day blanked, so that chrono's "morning on thursday" keeps its Thursday. */
const PLAIN_PARTS = /\b(?:in the )?(?:mornings?|afternoons?|evenings?|night)\b/gi;
function withoutPartsOfDay(text: string): string {
  const blank = (s: string) => ' '.repeat(s.length);
  let out = text.replace(PLAIN_PARTS, blank);
  for (const re of PART_OF_DAY_PHRASES) out = out.replace(new RegExp(re.source, 'gi'), blank);
  return out;
}

/** What stands between two days offered as alternatives: "or", "or maybe", "— or". */
const ALTERNATIVE = /^[\s,;:—–-]*(?:or|or maybe|or else|or perhaps)[\s,;:—–-]*$/i;
export const sameDay = (a: LocalDate, b: LocalDate) => a.year === b.year && a.month === b.month && a.day === b.day;
/** Whether a parsed day is `date`: the same date, or a weekday alone that is `date`'s ("see you at 2 on Thursday"). */
function sameDayNamed(date: LocalDate, s: ParsedComponents): boolean {
  const named = { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! };
  if (s.isCertain('day')) return sameDay(date, named);
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() === s.get('weekday');
}

/**
 * `anchor`: the day under discussion (a request just made), which "the Tuesday after that" counts from when the
 * message names no day before it.
 */
/** "nine a m", "3 p.m": a time dictated or typed apart, read as "nine am". */
const SPOKEN_MERIDIEM =
  /\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+([ap])\.?\s+m\b\.?/gi;
/** "at 13h", "at 9h30": a 24-hour time written the European way. */
const H_TIME = /\bat\s+([01]?\d|2[0-3])h(?:([0-5]\d))?\b/gi;
/** "nine in the morning", "2 in the afternoon": an hour and the half of the day it is in. */
const HOUR_IN_PART = new RegExp(
  // "9 hour of morning", "9 o'clock of the morning": the same, in other learners' words.
  String.raw`\b(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?::([0-5]\d))?\s+` +
    String.raw`(?:in\s+the|(?:hours?|o'?clock)\s+(?:of|in)(?:\s+the)?)\s+` +
    '(morning|afternoon|evening)\\b',
  'gi',
);
const EMOJI = /(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F|\u200D)+/gu;
/** "Ten o'clock would suit me": an hour spelled out, with the words that make it a clock time. */
const SPELLED_OCLOCK = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+o'?clock\b/gi;
const hourOf = (h: string) => String(HOUR_WORDS[h.toLowerCase()] ?? h);
const spokenMeridiem = (text: string) =>
  text
    .replace(SPOKEN_MERIDIEM, (_, h: string, ap: string) => `${hourOf(h)} ${ap}m`)
    .replace(H_TIME, (_, h: string, m?: string) => `at ${h}:${m ?? '00'}`)
    .replace(SPELLED_OCLOCK, (_, h: string) => `${hourOf(h)} o'clock`)
    .replace(
      HOUR_IN_PART,
      (_, h: string, m: string | undefined, part: string) =>
        `${hourOf(h)}${m ? `:${m}` : ''} ${part.toLowerCase() === 'morning' ? 'am' : 'pm'}`,
    );

/**
 * "Tuesday the 15th of December": chrono reads the weekday and "15th of December" as two days; without the "the"
 * (blanked, so positions stay) it reads one day and checks its weekday.
 */
const WEEKDAY_THE_DATE =
  /\b((?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+(the)\s+(?=\d{1,2}(?:st|nd|rd|th)?\s+of\s+[a-z])/gi;
const weekdayOfDate = (text: string) =>
  text.replace(WEEKDAY_THE_DATE, (all, day: string) => day + all.slice(day.length).replace(/the/i, '   '));

/** "the 15th, not tmrw": a day said after "not" is the one not meant. */
const NOT_THIS_DAY = /\b(?:not|rather than|instead of)\s+(?:the\s+|on\s+)?$/i;

export function extractWhen(text: string, nowIso: string, timeZone: string, anchor?: LocalDate): WhenMention {
  const now = new Date(nowIso);
  // "11 👍": an emoji says nothing about when (blanked to its length, so positions stay).
  const plain = text.replace(EMOJI, (e) => ' '.repeat(e.length));
  const masked = maskNonDates(
    resolveWeekPhrases(spellOutWeekdays(weekdayOfDate(spokenMeridiem(plain))), localParts(now, timeZone)),
  );
  const ref = { instant: now, timezone: zoneOffsetMinutes(now, timeZone) };
  const today = localParts(now, timeZone);
  const reader = dateReader({ today, ...(anchor ? { anchor } : {}) });
  // "the 16th, not this week. 10am suits": chrono joins "this week. 10am" across the sentence end, and the "not"
  // before it would drop the time with the week; each sentence's part is read on its own.
  const results = reader.parse(masked, ref, { forwardDate: true }).flatMap((r) => {
    const cut = /[.!?]\s+/.exec(r.text);
    if (!cut || !NOT_THIS_DAY.test(masked.slice(0, r.index))) return [r];
    const parts = [
      { from: r.index, text: r.text.slice(0, cut.index) },
      { from: r.index + cut.index + cut[0].length, text: r.text.slice(cut.index + cut[0].length) },
    ];
    return parts.flatMap((p) =>
      reader.parse(p.text, ref, { forwardDate: true }).map((q) => Object.assign(q, { index: q.index + p.from })),
    );
  });
  const out: WhenMention = { spans: [] };
  let lastDay: { end: number; date: LocalDate } | undefined;
  // Every plain day named, and where the clock time was: "the in-laws land saturday … this friday, 9 in the morning".
  const days: { index: number; end: number; date: LocalDate; weekdayOnly: boolean }[] = [];
  let clockAt: number | undefined;
  let relative = false;
  let secondTime: LocalTime | undefined;

  for (const r of results) {
    const span = r.text.trim();
    if (
      (IGNORED_SPAN.test(span) && !COUNTED_FROM_A_DAY.test(span)) ||
      NOT_THIS_DAY.test(masked.slice(0, r.index)) ||
      DURATION_SPAN.test(span) ||
      COUNT_SPAN.test(span)
    )
      continue;
    out.spans.push(span);
    if (VAGUE_SPAN.test(span)) {
      out.vague ??= span;
      continue;
    }
    const s = r.start;
    const tags = r.tags();
    // "next week at 3pm": chrono puts the time on the span's first day, but the span still names no day.
    const period = PERIOD_THEN_TIME.exec(span);
    if (period) out.vague ??= period[1]!;
    const dayCertain = !period && (s.isCertain('day') || s.isCertain('weekday'));
    const conflict = weekdayConflict(r);
    if (conflict && !out.conflict) out.conflict = conflict;
    if (dayCertain) {
      const date = { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! };
      if (lastDay && ALTERNATIVE.test(masked.slice(lastDay.end, r.index)) && !sameDay(lastDay.date, date)) {
        out.alternatives ??= [lastDay.date];
        if (!out.alternatives.some((d) => sameDay(d, date))) out.alternatives.push(date);
      }
      lastDay = { end: r.index + r.text.length, date };
    }
    if (dayCertain) {
      days.push({
        index: r.index,
        end: r.index + r.text.length,
        date: { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! },
        weekdayOnly: s.isCertain('weekday') && !s.isCertain('day'),
      });
      relative ||= tags.has(RELATIVE_TAG);
    }
    if (dayCertain && (!out.date || tags.has(RELATIVE_TAG))) {
      out.date = { year: s.get('year')!, month: s.get('month')!, day: s.get('day')! };
      out.weekdayOnly = s.isCertain('weekday') && !s.isCertain('day');
    }
    // "on Thursday 17th at 10am … see you at 2 on Thursday": a second start said for the same day.
    if (s.isCertain('hour') && out.time && dayCertain && out.date && sameDayNamed(out.date, s)) {
      const t = s.isCertain('meridiem') ? { hour: s.get('hour')!, minute: s.get('minute') ?? 0 } : undefined;
      const second = t ?? resolveBareHour(s.get('hour')!, s.get('minute') ?? 0);
      if (!('options' in second) && (second.hour !== out.time.hour || second.minute !== out.time.minute))
        secondTime ??= second;
    }
    if (s.isCertain('hour') && !out.time && !out.ambiguous) clockAt = r.index;
    if (s.isCertain('hour') && !out.time && !out.ambiguous) {
      const hour = s.get('hour')!;
      const minute = s.get('minute') ?? 0;
      if (s.isCertain('meridiem') || tags.has('casualReference/noon') || tags.has('casualReference/midnight')) {
        out.time = { hour, minute };
      } else {
        const t = resolveBareHour(hour, minute);
        if ('options' in t) out.ambiguous = { hour, minute, options: t.options };
        else out.time = t;
      }
    } else if (!s.isCertain('hour') && !out.hint) {
      if (tags.has('casualReference/morning')) out.hint = 'morning';
      else if (tags.has('casualReference/afternoon')) out.hint = 'afternoon';
      else if (tags.has('casualReference/evening') || tags.has('casualReference/night')) out.hint = 'evening';
    }
  }

  // "late morning on thursday": chrono reads the part of the day and drops the day after it.
  const bare = withoutPartsOfDay(masked);
  if (!out.date && bare !== masked) {
    const d = reader
      .parse(bare, ref, { forwardDate: true })
      .filter((r) => !IGNORED_SPAN.test(r.text) && !VAGUE_SPAN.test(r.text.trim()))
      .find((r) => r.start.isCertain('day') || r.start.isCertain('weekday'));
    if (d) {
      out.date = { year: d.start.get('year')!, month: d.start.get('month')!, day: d.start.get('day')! };
      out.weekdayOnly = d.start.isCertain('weekday') && !d.start.isCertain('day');
    }
  }
  // Two days and one clock time: the day asked for is the one the time goes with, the other tells what happens around
  // it (a day counted from another, "the tuesday after that", keeps its own rule; so do alternatives).
  const distinct = days.filter((d, i) => days.findIndex((x) => sameDay(x.date, d.date)) === i);
  if (distinct.length > 1 && clockAt !== undefined && !relative && !out.alternatives) {
    const nearest = [...distinct].sort((x, y) => Math.abs(x.index - clockAt!) - Math.abs(y.index - clockAt!))[0]!;
    out.date = nearest.date;
    out.weekdayOnly = nearest.weekdayOnly;
  }
  // "omg its xmas. saturday 26th then": a day said with "then" is the one settled on. ("… be friday instead" is a
  // move's new day, read with the booking it moves.)
  if (distinct.length > 1 && !relative && !out.alternatives) {
    const settled = days.filter((d) => /^\s*,?\s*then\b/i.test(masked.slice(d.end)));
    if (settled.length === 1) {
      out.date = settled[0]!.date;
      out.weekdayOnly = settled[0]!.weekdayOnly;
    }
  }
  // "next tuesday" said on a Monday: tomorrow (this week's) or the week after's; both are plausible, so both are
  // offered. From Saturday "next tuesday" is the coming one, and "next friday" on a Friday is a week on: no doubt.
  const next = /\bnext\s+(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b(?!\s+week)/i.exec(masked);
  if (next && out.date && !out.alternatives && !relative) {
    const wd = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].indexOf(next[1]!.toLowerCase());
    const todayWd = new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay();
    const ahead = (wd - todayWd + 7) % 7;
    // Days left in this week (Monday to Sunday) after today.
    const leftThisWeek = todayWd === 0 ? 0 : 7 - todayWd;
    if (ahead > 0 && ahead <= leftThisWeek) {
      const coming = addDays(today, ahead);
      const later = addDays(today, ahead + 7);
      const pick = (d: LocalDate) => ({ year: d.year, month: d.month, day: d.day });
      if (sameDay(out.date, coming) || sameDay(out.date, later)) out.alternatives = [pick(coming), pick(later)];
    }
  }
  // chrono misses "the day after tomorrow" (with a time after it, it reads "tomorrow at 3").
  const tomorrow = addDays(today, 1);
  if ((!out.date || sameDay(out.date, tomorrow)) && /\bday after tomorrow\b/i.test(masked)) {
    const d = addDays(today, 2);
    out.date = { year: d.year, month: d.month, day: d.day };
    out.weekdayOnly = false;
  }
  // chrono misses "the 15th" / "on the 9th" without a month: the next such day from today. It
  // also wins over a bare weekday ("Tuesday the 15th"), which chrono would read as the next Tuesday.
  // A day of the month said with "then" or "instead" is read here even when chrono found another day.
  if (!out.date || out.weekdayOnly || /\d(?:st|nd|rd|th)\s*,?\s*(?:then|instead)\b/i.test(masked)) {
    // "the 3rd floor", "the 2nd bathroom" count something else; "the first/second/third" (in words) picks from a
    // list far more often than it names a day, so words start at "the fourth".
    const all = [
      ...masked.matchAll(
        new RegExp(
          // "21st same time?": a number with its ordinal ending names a day without "the" too.
          String.raw`\b(?:on\s+)?(?:(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)|the\s+(${ORDINAL_DAY_WORD}))\b` +
            String.raw`(?!\s+(?:of|floor|bed\w*|bath\w*|room|time|one|visit|thing|slot|option)\b)`,
          'gi',
        ),
      ),
    ];
    // "tenants leave on the 24th so can i get a clean on the 25th at 9": the day asked for is the one the clock
    // time goes with, the other tells what happens around it.
    const clocks = [...masked.matchAll(/\b(?:at\s+\d{1,2}(?::\d\d)?|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.))/gi)];
    const near = (i: number) => Math.min(...clocks.map((c) => Math.abs(c.index - i)));
    // "wait the 14th is no good, 21st same time?": a day said not to suit is not the one asked for.
    const unsuited = (x: RegExpMatchArray) =>
      /^\s*(?:is|'s)?\s*(?:no good|not good|out|a no go|(?:doesn'?t|does not|won'?t|wont) work)\b/i.test(
        masked.slice(x.index! + x[0].length),
      );
    const suited = all.length > 1 && all.some((x) => !unsuited(x)) ? all.filter((x) => !unsuited(x)) : all;
    // "the 25th is christmas lol. the 26th instead": the day said with "then" or "instead" is the one settled on.
    const settled = suited.filter((x) => /^\s*,?\s*(?:then|instead)\b/i.test(masked.slice(x.index! + x[0].length)));
    const m =
      settled.length === 1
        ? settled[0]
        : suited.length > 1 && clocks.length
          ? [...suited].sort((x, y) => near(x.index) - near(y.index))[0]
          : suited[0];
    const dateOf = (match: RegExpMatchArray | undefined): LocalDate | undefined => {
      const word = match?.[2] ? ordinalDay(match[2]) : undefined;
      const day = match?.[1] ? Number(match[1]) : word !== undefined && word > 3 ? word : NaN;
      if (!(day >= 1 && day <= 31)) return undefined;
      let year = today.year;
      let month = today.month;
      if (day < today.day) {
        month += 1;
        if (month > 12) {
          month = 1;
          year += 1;
        }
      }
      const probe = new Date(Date.UTC(year, month - 1, day));
      return probe.getUTCDate() === day ? { year, month, day } : undefined;
    };
    const date = dateOf(m);
    if (date) {
      out.date = date;
      out.weekdayOnly = false;
    }
    // "the windows done the 15th or the 16th, 9am": either day, which is the customer's to choose.
    for (let i = 1; i < all.length && !out.alternatives; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      const [da, db] = [dateOf(a), dateOf(b)];
      if (da && db && !sameDay(da, db) && ALTERNATIVE.test(masked.slice(a.index + a[0].length, b.index)))
        out.alternatives = [da, db];
    }
  }
  // A bare hour chrono leaves alone: "make it 11", "how about 3 instead", "11 works".
  if (!out.time && !out.ambiguous) {
    const bare =
      new RegExp(
        String.raw`\b(?:make it|make that|change it to|move it to|switch (?:it )?to|how about|what about|` +
          String.raw`let'?s do|lets do|can we do|could we do|around|at)\s+(\d{1,2})(?::([0-5]\d))?(?![\d:/.-])` +
          String.raw`(?!\s*(?:st|nd|rd|th|%|am|pm|a\.m|p\.m|o'clock|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|` +
          String.raw`bedrooms?|bathrooms?|rooms?|people|windows?|tvs?)\b)`,
        'i',
      ).exec(masked) ??
      /^\s*(\d{1,2})(?::([0-5]\d))?\s+(?:works|is (?:fine|good|better|perfect)|would work|instead|please|then)\b/i.exec(
        masked,
      ) ??
      // "ah wait I've got the dentist then — 5 instead?": the hour after a dash or a comma, said instead.
      /(?:[\u2013\u2014-]|[,;])\s*(\d{1,2})(?::([0-5]\d))?\s+instead\b/i.exec(masked) ??
      // "saturday 26th then, 9 still good": the hour said before, kept.
      /(?:^|[,;.]\s*)(\d{1,2})(?::([0-5]\d))?\s+(?:is\s+)?still\s+(?:good|fine|ok|okay|works|work)\b/i.exec(masked) ??
      // "could the fan install on sat be 11" (… instead of 9): the hour it is asked to be, ending the words; so is
      // "… later in the day? like 3".
      /\b(?:be|like)\s+(\d{1,2})(?::([0-5]\d))?\s*(?:ish)?[?.!]*\s*$/i.exec(masked) ??
      // "9" on its own, answering our "which time?"
      /^\s*(?:(?:ok|okay|um+|hmm+)[,\s]+)?(\d{1,2})(?::([0-5]\d))?\s*(?:pls|please|thanks|then)?[?.!]*\s*$/i.exec(
        masked,
      );
    const hour = bare ? Number(bare[1]) : NaN;
    if (hour >= 1 && hour <= 12) {
      const t = resolveBareHour(hour, bare?.[2] ? Number(bare[2]) : 0);
      if ('options' in t) out.ambiguous = { hour, minute: t.options[0].minute, options: t.options };
      else out.time = t;
    }
  }
  const part = out.time || out.ambiguous ? undefined : partOfDay(masked);
  if (part?.kind === 'first') {
    const hours = out.date ? openingHours(out.date) : undefined;
    if (hours) out.time = { hour: hours[0], minute: 0 };
    else out.hint ??= 'morning';
  } else if (part?.kind === 'last') {
    out.part = part; // resolved with the service's length (withLastStart)
  } else if (part) {
    out.part = part;
    out.vagueTime = part.phrase;
  }
  if (!out.hint && !out.time && !out.ambiguous) {
    if (/\bmornings?\b/i.test(masked)) out.hint = 'morning';
    else if (/\bafternoons?\b/i.test(masked)) out.hint = 'afternoon';
    else if (/\b(evening|tonight)\b/i.test(masked)) out.hint = 'evening';
  }
  if (out.date && out.weekdayOnly && ANY_SUCH_DAY.test(masked)) out.anyDay = true;
  // "at 2pm.. no wait school pickup, make it 3": the time said again after taking the first back is the one asked.
  const retimed = RETIMED.exec(masked);
  if (retimed && (out.time || out.ambiguous) && clockAt !== undefined && retimed.index > clockAt) {
    const t = saidClock(Number(retimed[1]), retimed[2] ? Number(retimed[2]) : 0, retimed[3]);
    if (t) {
      out.time = t;
      delete out.ambiguous;
    }
  }
  // Two starts for one day and neither taken back: which one is the customer's to say.
  if (secondTime && out.time && !(retimed && clockAt !== undefined && retimed.index > clockAt)) {
    out.ambiguous = { ...out.time, options: [out.time, secondTime] };
    delete out.time;
  }
  // The number read as the clock time may be the day: unless another clock time is said, ask which.
  const either = dayOrHour(masked, today);
  const clocks = masked.match(/\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m|p\.m|o'?clock|h\b)|\b(?:at|@)\s*\d|\bnoon\b/gi);
  if (either && !clocks) {
    const t = resolveBareHour(either.hour, 0);
    if (!('options' in t)) out.dayOrHour = { date: either.date, time: t };
  }
  return out;
}

/**
 * "your last slot on thursday" as a start, once the visit is known: the last hour of that day a visit of
 * `durationMinutes` can start and still end by closing. Unchanged when the day is closed (asked about as such).
 */
export function withLastStart(w: WhenMention, durationMinutes: number | undefined): WhenMention {
  if (w.part?.kind !== 'last' || !w.date || w.time || w.ambiguous || durationMinutes === undefined) return w;
  const hour = lastStartHour(w.date, durationMinutes);
  return hour === undefined ? w : { ...w, time: { hour, minute: 0 } };
}

/** Example start times to offer when the customer gave a day but no time. */
export function timeOptions(hint?: TimeHint): LocalTime[] {
  const hours = SUGGESTED_START_HOURS[hint === 'morning' || hint === 'afternoon' ? hint : 'any'];
  return hours.map((hour) => ({ hour, minute: 0 }));
}

export function compareLocal(a: LocalDateTime, timeZone: string, nowIso: string): number {
  return zonedTime(a, timeZone).getTime() - new Date(nowIso).getTime();
}

/** Combine a day and a time into a future instant; a bare weekday already passed today rolls a week. */
export function combine(
  date: LocalDate,
  time: LocalTime,
  opts: { weekdayOnly?: boolean; nowIso: string; timeZone: string },
): { iso: string; inPast: boolean } {
  let d: LocalDate = date;
  if (compareLocal({ ...d, ...time }, opts.timeZone, opts.nowIso) <= 0 && opts.weekdayOnly) {
    const next = addDays(d, 7);
    d = { year: next.year, month: next.month, day: next.day };
  }
  const local = { ...d, ...time };
  return { iso: localToIso(local, opts.timeZone), inPast: compareLocal(local, opts.timeZone, opts.nowIso) <= 0 };
}

export function shiftDays(iso: string, days: number, timeZone: string): string {
  const l = localOf(iso, timeZone);
  const d = addDays(l, days);
  return localToIso({ year: d.year, month: d.month, day: d.day, hour: l.hour, minute: l.minute }, timeZone);
}

export function shiftMinutes(iso: string, minutes: number, timeZone: string): string {
  return isoInZone(new Date(new Date(iso).getTime() + minutes * 60_000), timeZone);
}

/**
 * A short answer that is only an hour ("ok 4 then", "3 works"), read as a start time: the reading in
 * business hours, or both readings when either could be.
 */
export function bareHourAnswer(text: string): Pick<WhenMention, 'time' | 'ambiguous'> | undefined {
  const t = text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .trim();
  if (t.split(/\s+/).length > 6) return undefined;
  const numbers = t.match(/\b\d+\b/g) ?? [];
  const m = /\b(1[0-2]|[1-9])(?: ?o'?clock)?\b/.exec(t);
  if (numbers.length !== 1 || !m) return undefined;
  const hour = Number(m[1]);
  const read = resolveBareHour(hour, 0);
  return 'options' in read ? { ambiguous: { hour, minute: 0, options: read.options } } : { time: read };
}
