import { addDays } from '../../../../core/time.js';
import {
  closedDays,
  OPENING_HOURS,
  openingHours,
  SLOT_DAYS,
  type LocalDate,
} from '../../../../schema/business/calendar.js';
import type { PlanContext } from '../../../plan-context.js';
import type { Offer } from '../conversation.js';
import { startsFor } from '../analysis/parts-of-day.js';
import type { Service } from '../analysis/services.js';
import { joinList } from '../analysis/text.js';
import {
  formatClock,
  formatDay,
  formatWhen,
  localOf,
  localToIso,
  type LocalTime,
  type WhenMention,
} from '../analysis/when.js';

/*
 * What the calendar (schema/business/calendar.ts) says about the day and time a customer asked
 * for, before anything is proposed: a closed day, a start outside that day's hours, today's own
 * weekday (online bookings start tomorrow), or a part of the day that covers several starts. Each
 * is a question with the nearest thing we can book, and, when service and time are known, an
 * offer a "yes" accepts.
 */

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const weekdayOf = (d: LocalDate) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
const sameDay = (a: LocalDate, b: LocalDate) => a.year === b.year && a.month === b.month && a.day === b.day;
const after = (a: LocalDate, b: LocalDate) =>
  Date.UTC(a.year, a.month - 1, a.day) > Date.UTC(b.year, b.month - 1, b.day);
const dayOf = (d: LocalDate): LocalDate => ({ year: d.year, month: d.month, day: d.day });

export interface CalendarQuestion {
  note: string;
  offer?: Offer;
}

/** A start fits a day when it is one of that day's start hours. */
function fits(day: LocalDate, t: LocalTime): boolean {
  const h = openingHours(day);
  return Boolean(h) && t.minute === 0 && t.hour >= h![0] && t.hour <= h![1];
}

/**
 * The open days nearest to `day` that can still be booked (after today), nearest first; on a tie
 * the later day comes first (someone who can't make the day asked for can rarely make it sooner).
 * With `time`, only days where that start exists.
 */
function nearestOpenDays(day: LocalDate, today: LocalDate, time?: LocalTime): LocalDate[] {
  for (let k = 1; k <= 14; k++) {
    const found = [addDays(day, k), addDays(day, -k)]
      .map(dayOf)
      .filter((d) => after(d, today) && (time ? fits(d, time) : Boolean(openingHours(d))));
    if (found.length) return found;
  }
  return [];
}

/** "on Sundays" or "on Christmas Day (Fri, Dec 25)": why a day has no visits. */
function closedReason(day: LocalDate, timeZone: string): string {
  const holiday = closedDays(day.year).find((h) => sameDay(h, day));
  if (holiday) return `on ${holiday.names[0]} (${formatDay(day, timeZone)})`;
  return OPENING_HOURS[weekdayOf(day)] ? `on ${formatDay(day, timeZone)}` : `on ${WEEKDAY_NAMES[weekdayOf(day)]}s`;
}

function offerFor(service: Service | undefined, day: LocalDate, time: LocalTime | undefined, ctx: PlanContext) {
  if (!service || !time || !ctx.customer) return undefined;
  const args = {
    customer_id: ctx.customer.id,
    service_id: service.id,
    start_time: localToIso({ ...day, ...time }, ctx.timeZone),
  };
  return { kind: 'propose' as const, tool: 'book_slot', args };
}

const at = (day: LocalDate, time: LocalTime | undefined, timeZone: string) =>
  `${formatDay(day, timeZone)}${time ? ` at ${formatClock(time)}` : ''}`;

/**
 * A question (no request) about a day we are closed: "could you do a handyman hour on a sunday, in
 * theory?", "what's the closest day instead of sunday?". The calendar answers it, whatever article
 * the rest of the question finds: closed, and the open days nearest to it.
 */
export function closedDayNote(w: WhenMention, ctx: PlanContext): string | undefined {
  if (!w.date || openingHours(w.date)) return undefined;
  const tz = ctx.timeZone;
  const day = dayOf(w.date);
  const near = nearestOpenDays(day, dayOf(localOf(ctx.now, tz)));
  const days = joinList(
    near.map((d) => formatDay(d, tz)),
    'or',
  );
  return (
    `We're closed ${closedReason(day, tz)}, so there are no visits that day.` +
    (near.length ? ` The nearest ${near.length > 1 ? 'days' : 'day'} we're open: ${days}.` : '')
  );
}

/** The question the calendar raises about this day and time, if any. */
export function calendarQuestion(
  w: WhenMention,
  service: Service | undefined,
  ctx: PlanContext,
): CalendarQuestion | undefined {
  if (!w.date) return undefined;
  const tz = ctx.timeZone;
  const today = dayOf(localOf(ctx.now, tz));
  const day = dayOf(w.date);
  const time = w.time;

  // "monday" said on a Monday: today can't be booked from here, so which Monday is asked, never assumed.
  if (w.weekdayOnly && sameDay(day, today)) {
    const next = dayOf(addDays(day, 7));
    const offer = time && fits(next, time) ? offerFor(service, next, time, ctx) : undefined;
    return {
      note:
        `Today is ${formatDay(today, tz)}, and I can only book visits from tomorrow on. ` +
        `Did you mean ${at(next, time && fits(next, time) ? time : undefined, tz)}, a week from today` +
        `${offer ? '' : ', and at what time'}?`,
      ...(offer ? { offer } : {}),
    };
  }

  // "january 4th at 10": past the days the calendar is open for; the tool would refuse it, so the limit is said.
  const lastDay = dayOf(addDays(today, SLOT_DAYS));
  if (day.year * 10_000 + day.month * 100 + day.day > lastDay.year * 10_000 + lastDay.month * 100 + lastDay.day)
    return {
      note:
        `We take bookings up to ${SLOT_DAYS} days ahead, so the furthest day I can book right now is ` +
        `${formatDay(lastDay, tz)}, and ${formatDay(day, tz)} isn't open yet. Would a day up to then work, or would ` +
        'you like to ask again closer to the date?',
    };

  const hours = openingHours(day);
  if (!hours) {
    const closed = `We're closed ${closedReason(day, tz)}, though, so that day isn't possible.`;
    const near = time ? nearestOpenDays(day, today, time) : [];
    if (service && time && near.length > 1) {
      // Two days equally near: both listed, picked by position or by day.
      const options = near.map((d) => {
        const start_time = localToIso({ ...d, ...time }, tz);
        return { start_time, label: formatWhen(start_time, tz) };
      });
      return {
        note:
          `${closed} The nearest days we're open:\n${options.map((o, i) => `${i + 1}. ${o.label}`).join('\n')}\n` +
          'Which would you like?',
        offer: { kind: 'alternatives', service_id: service.id, options },
      };
    }
    const offer = near[0] ? offerFor(service, near[0], time, ctx) : undefined;
    if (offer)
      return {
        note:
          `${closed} The nearest day we're open is ${formatDay(near[0]!, tz)}: ` +
          `shall I request it for ${at(near[0]!, time, tz)} instead?`,
        offer,
      };
    const nearAny = nearestOpenDays(day, today);
    const days = joinList(
      nearAny.map((d) => formatDay(d, tz)),
      'or',
    );
    const plural = nearAny.length > 1 ? 'days' : 'day';
    return { note: `${closed} The nearest ${plural} we're open: ${days}. Which day and time would you like?` };
  }

  const [open, last] = hours;
  // The service's own last start: it has to finish by closing ("a 4-hour clean starts by 2:00 PM").
  const hoursOf = service ? Math.ceil(service.duration_minutes / 60) : 1;
  const latest = Math.max(open, last + 1 - hoursOf);
  // "6:30pm" after the last start: outside the day's hours whatever its minutes.
  const outside = time && (time.hour < open || time.hour > last);
  if (time && !fits(day, time) && (time.minute === 0 || outside)) {
    const nearest = { hour: time.hour < open ? open : latest, minute: 0 };
    const offer = offerFor(service, day, nearest, ctx);
    return {
      note:
        `On ${formatDay(day, tz)} our visits start between ${formatClock({ hour: open, minute: 0 })} and ` +
        `${formatClock({ hour: last, minute: 0 })}, so ${formatClock(time)} isn't possible. ` +
        `Would ${formatClock(nearest)} work, or another time?`,
      ...(offer ? { offer } : {}),
    };
  }

  // "a deep clean 12/15 at 3pm": a start the day has, but too late for this service to finish by closing.
  if (service && time && time.minute === 0 && time.hour <= last && time.hour > latest) {
    const nearest = { hour: latest, minute: 0 };
    const offer = offerFor(service, day, nearest, ctx);
    return {
      note:
        `${service.name} takes about ${hoursOf} hour${hoursOf === 1 ? '' : 's'} and has to finish by ` +
        `${formatClock({ hour: last + 1, minute: 0 })}, so the latest start on ${formatDay(day, tz)} is ` +
        `${formatClock(nearest)}. Would ${formatClock(nearest)} work, or another time?`,
      ...(offer ? { offer } : {}),
    };
  }

  if (!time && w.part?.kind === 'range') {
    const fit = startsFor(day, w.part, service?.duration_minutes);
    const starts = fit.hours.map((hour) => ({ hour, minute: 0 }));
    if (starts.length === 1) {
      const only = starts[0]!;
      const offer = offerFor(service, day, only, ctx);
      const lead = fit.inside
        ? `The only start ${w.part.phrase} on ${formatDay(day, tz)} is ${formatClock(only)}.`
        : `We don't have visits that ${fit.before ? 'early' : 'late'}: the ${fit.before ? 'earliest' : 'latest'} ` +
          `start on ${formatDay(day, tz)} is ${formatClock(only)}.`;
      return { note: `${lead} Would that work, or would another time suit you better?`, ...(offer ? { offer } : {}) };
    }
    return {
      note:
        `Which start would suit you on ${formatDay(day, tz)} (${w.part.phrase}): ` +
        `${joinList(starts.map(formatClock), 'or')}?`,
    };
  }
  return undefined;
}
