import { type LocalTime, saidClock } from './when.js';

/*
 * When the customer says they can let us in: "im home from 11", "not back till 2", "only home until noon". A start
 * asked for outside those hours is a contradiction the customer has to settle; we never pick one of the two.
 */

const HOUR = String.raw`(\d{1,2})(?::([0-5]\d))?\s*(am|pm|a\.m\.?|p\.m\.?)?|(noon|midday)`;
const THERE = String.raw`(?:home|back|in|free|available|around|there|off work|off)`;
const FROM = new RegExp(
  String.raw`\b(?:i'?m|i am|we'?re|we are|ill be|i'll be|will be|be)?\s*${THERE}\s+(?:from|after)\s+(?:${HOUR})`,
  'i',
);
const NOT_UNTIL = new RegExp(
  String.raw`\b(?:not|n't|never)\s+${THERE}\s+(?:until|till|til|before)\s+(?:${HOUR})|` +
    String.raw`\b(?:out|at work|busy|away)\s+(?:until|till|til)\s+(?:${HOUR})`,
  'i',
);
const UNTIL = new RegExp(
  String.raw`\b(?<!not\s)(?<!n't\s)${THERE}\s+(?:only\s+)?(?:until|till|til)\s+(?:${HOUR})`,
  'i',
);

function clock(m: RegExpExecArray, at: number): LocalTime | undefined {
  if (m[at + 3]) return { hour: 12, minute: 0 };
  const hour = Number(m[at]);
  const minute = m[at + 1] ? Number(m[at + 1]) : 0;
  // "home from 15": a 24-hour clock needs no am/pm.
  if (hour >= 13 && hour <= 23 && !m[at + 2]) return { hour, minute };
  return saidClock(hour, minute, m[at + 2]);
}

/** The hours the customer says they are there: from a time, until a time, or both. */
export function presenceWindow(text: string): { from?: LocalTime; until?: LocalTime } {
  const out: { from?: LocalTime; until?: LocalTime } = {};
  const from = FROM.exec(text);
  if (from) out.from = clock(from, 1);
  const notUntil = NOT_UNTIL.exec(text);
  if (notUntil && !out.from) out.from = clock(notUntil, notUntil[1] || notUntil[4] ? 1 : 5);
  const until = UNTIL.exec(text);
  if (until) out.until = clock(until, 1);
  return out;
}

const minutes = (t: LocalTime) => t.hour * 60 + t.minute;

/** The presence hour a start asked for falls outside ("9am … im home from 11" → 11:00), if it does. */
export function startOutsidePresence(
  text: string,
  start: LocalTime,
): { said: LocalTime; kind: 'from' | 'until' } | undefined {
  const w = presenceWindow(text);
  if (w.from && minutes(start) < minutes(w.from)) return { said: w.from, kind: 'from' };
  if (w.until && minutes(start) >= minutes(w.until)) return { said: w.until, kind: 'until' };
  return undefined;
}
