import { lastStartHour, openingHours, type LocalDate } from '../../../../schema/business/calendar.js';

/*
 * Parts of the day customers name instead of a clock time. The rule (evals/README.md): a part that
 * names one start the calendar defines ("first thing": the day's first start) is proposed; a part
 * that names a range ("late morning", "after lunch", "end of the day", "evening") is asked about,
 * offering the starts of that day's opening hours inside it, or the nearest start when the range
 * lies outside them. The hours below are what the words mean; which starts exist is the calendar's.
 */

export type PartOfDay =
  | { phrase: string; kind: 'first' }
  /** The day's last start for the service asked for: it depends on how long the visit takes (booking.ts). */
  | { phrase: string; kind: 'last' }
  /** Local hours [from, to] the words cover; `fromClose`: counted back from the day's last start. */
  | { phrase: string; kind: 'range'; from: number; to: number; fromClose?: boolean };

type Entry = {
  re: RegExp;
  part: Omit<Extract<PartOfDay, { kind: 'range' }>, 'phrase'> | { kind: 'first' } | { kind: 'last' };
};

/** Most specific first: "late morning" before "morning". */
const PARTS: Entry[] = [
  {
    // "the first slot" alone may pick from a list we gave; "first slot on friday" names the day's.
    re: new RegExp(
      String.raw`\b(?:first thing|as (?:early|soon) as (?:possible|(?:you|u) can|you(?:'?re| are)? open\w*)|` +
        String.raw`(?:right )?when you open|earliest (?:slot|time|start|appointment|available|possible|` +
        String.raw`(?:you|u)(?:'?ve| have)? (?:can|have|got))|` +
        String.raw`first (?:slot|start|appointment)(?= (?:on|of|in|you)\b))\b`,
    ),
    part: { kind: 'first' },
  },
  {
    // "your last slot on thursday", "the latest start you have": one start, the day's last for that visit.
    re: new RegExp(
      // Not "since my last appointment": a visit had, not a start asked for.
      String.raw`\b(?:(?:last|latest) (?:slot|start)(?= (?:on|of|in|you|that|available)\b|\s*[,.?!]|$)|` +
        String.raw`last appointment (?=on|of the day)|latest (?:slot|start|time|appointment|you can))\b`,
    ),
    part: { kind: 'last' },
  },
  { re: /\bearly[- ]?morning\b/, part: { kind: 'range', from: 0, to: 9 } },
  { re: /\b(?:late|mid)[- ]?morning\b/, part: { kind: 'range', from: 10, to: 11 } },
  { re: /\b(?:after lunch|early[- ]?afternoon)\b/, part: { kind: 'range', from: 13, to: 14 } },
  { re: /\b(?:lunch ?time|around lunch|mid[- ]?day)\b/, part: { kind: 'range', from: 11, to: 13 } },
  { re: /\b(?:late[- ]?afternoon|mid[- ]?afternoon)\b/, part: { kind: 'range', from: 15, to: 17 } },
  {
    re: /\b(?:(?:end|close) of (?:the )?(?:day|business)|later in the day|last (?:slot|start|thing))\b/,
    part: { kind: 'range', from: 1, to: 0, fromClose: true },
  },
  {
    re: /\b(?:evenings?|tonight|after work|after (?:5|five|6|six)(?: ?pm)?)\b/,
    part: { kind: 'range', from: 18, to: 23 },
  },
];

/** The first part of the day the text names beyond a plain "morning"/"afternoon", if any. */
export function partOfDay(text: string): PartOfDay | undefined {
  const t = text.toLowerCase();
  for (const { re, part } of PARTS) {
    const m = re.exec(t);
    if (m) return { phrase: m[0], ...part };
  }
  return undefined;
}

/** The phrases partOfDay reads, for hiding them from chrono (which drops a weekday after "morning on"). */
export const PART_OF_DAY_PHRASES: readonly RegExp[] = PARTS.map((p) => p.re);

/**
 * The start hours of `day` that fit a range part: those inside it (`inside`), else the day's one
 * start nearest to it (`before`: the range ends before the day opens). Empty when the day is closed.
 */
export function startsFor(
  day: LocalDate,
  part: Extract<PartOfDay, { kind: 'range' }>,
  /** The visit's length, when the service is known: its starts end by closing (the booking tool's rule). */
  durationMinutes?: number,
): { hours: number[]; inside: boolean; before: boolean } {
  const opening = openingHours(day);
  if (!opening) return { hours: [], inside: false, before: false };
  const open = opening[0];
  const last = durationMinutes === undefined ? opening[1] : (lastStartHour(day, durationMinutes) ?? opening[1]);
  const from = part.fromClose ? last - part.from : part.from;
  const to = part.fromClose ? last - part.to : part.to;
  const hours: number[] = [];
  for (let h = Math.max(open, from); h <= Math.min(last, to); h++) hours.push(h);
  if (hours.length) return { hours, inside: true, before: false };
  return { hours: [to < open ? open : last], inside: false, before: to < open };
}
