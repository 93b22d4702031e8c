import type { PlanContext } from '../../../plan-context.js';
import { detectCues } from './cues.js';
import { reportsProblem } from './entities.js';
import { followsOn } from './follow-on.js';
import { matchServices, type Service } from './services.js';
import { extractWhen, type WhenMention } from './when.js';

/*
 * Multi-intent segmentation: a message can carry several requests ("book a TV mount Tuesday at 1
 * and a ceiling fan Wednesday at 3", "the cleaner missed the bathroom. separately, I want the
 * windows done Saturday"). Each segment is read on its own, so one request's words don't blur
 * another's service or day.
 */

/**
 * A sentence end, a dash, a numbered item ("2 things 1) … 2) …"), or "and/also/plus/then" before words
 * that start a request.
 */
const SEGMENT_BREAK = new RegExp(
  String.raw`(?<=[.!?;])\s+|\s+-\s+|(?:^|\s+)\(?\d\)\s*|` +
    String.raw`,?\s+(?:and (?:also )?|also |plus |then )` +
    String.raw`(?=(?:a|an|the|book|schedule|i|can|could|please|someone|somebody|get|my)\b)`,
  'i',
);

/** Sentences, then clauses joined by "and"/"also" that start a new request. */
export function segments(text: string): string[] {
  return text
    .split(SEGMENT_BREAK)
    .map((s) => s.replace(/^\s*(?:separately|also|and|plus|oh and|then)[,:]?\s*/i, '').trim())
    .filter((s) => s.length > 2);
}

export interface BookingSegment {
  text: string;
  service: Service;
  when: WhenMention;
}

/** Segments that each name one service and a day and a time: one booking each. */
export function bookingSegments(text: string, ctx: PlanContext): BookingSegment[] {
  const out: BookingSegment[] = [];
  let day: WhenMention['date'];
  for (const seg of segments(text)) {
    const m = matchServices(seg, ctx.services).matches;
    const said = extractWhen(seg, ctx.now, ctx.timeZone);
    // "…and then a tv mount (the) same day at 3pm": a time alone is on the day the message last named.
    const when = !said.date && said.time && day && !said.conflict ? { ...said, date: day } : said;
    if (when.date) day = when.date;
    if (m.length === 1 && when.date && when.time && !when.conflict) out.push({ text: seg, service: m[0]!, when });
    else if (m.length === 1 && !said.date && !said.time && followsOn(seg)) {
      // "…and a handyman hour straight after": on the day of the visit before it, when that one ends.
      const prev = out.at(-1);
      if (prev?.when.date && prev.when.time) {
        const hours = Math.ceil(prev.service.duration_minutes / 60);
        const time = { ...prev.when.time, hour: prev.when.time.hour + hours };
        out.push({ text: seg, service: m[0]!, when: { ...prev.when, time, spans: [] } });
      }
    }
  }
  return out;
}

/**
 * A booking asked for in a segment of its own next to a reported problem: the problem gets its
 * ticket and the booking is still proposed, from that segment's words (the faulty thing named in the
 * problem is not the service booked).
 */
export function bookingBesideProblem(text: string, ctx: PlanContext): string | undefined {
  const parts = segments(text);
  if (parts.length < 2) return undefined;
  return parts.find((seg) => {
    if (reportsProblem(seg)) return false;
    const c = detectCues(seg);
    const when = extractWhen(seg, ctx.now, ctx.timeZone);
    return (
      (c.book.strong || c.book.weak) &&
      matchServices(seg, ctx.services).matches.length === 1 &&
      Boolean(when.date && when.time)
    );
  });
}
