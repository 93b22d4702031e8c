import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { addDays } from '../../../../core/time.js';
import type { PlanContext } from '../../../plan-context.js';
import {
  FIRST_START_HOUR,
  LAST_START_HOUR,
  lastStartHour,
  openingHours,
} from '../../../../schema/business/calendar.js';
import { customerTexts, type BaseBooking, type Offer } from '../conversation.js';
import type { Analysis } from '../analysis/analyze.js';
import { extractPreferences, visitNotes } from '../analysis/entities.js';
import { startOutsidePresence } from '../analysis/presence.js';
import { jobNoServiceCovers, partNotIncluded } from '../analysis/service-scope.js';
import { matchServices, serviceName, type Service } from '../analysis/services.js';
import { clip, joinList, normalize } from '../analysis/text.js';
import { inspectionOfInstalled, repairOrReplace, visitElsewhere } from '../analysis/visit-site.js';
import {
  combine,
  extractWhen,
  formatClock,
  formatDay,
  formatWhen,
  localOf,
  sameDay,
  shiftDays,
  shiftMinutes,
  timeOptions,
  type LocalDate,
  type WhenMention,
  withLastStart,
} from '../analysis/when.js';
import { answerFromKb, kbCaveat } from '../replies/knowledge.js';
import { escapeRe, namedPlace } from '../replies/question-terms.js';
import { durationText, listServices, timeChoices } from '../replies/templates.js';
import { calendarQuestion } from './booking-calendar.js';

/** "between 8:00 AM and 5:00 PM": the first and last start of the business calendar's week. */
const visitHours = () =>
  `between ${formatClock({ hour: FIRST_START_HOUR, minute: 0 })} ` +
  `and ${formatClock({ hour: LAST_START_HOUR, minute: 0 })}`;

export interface BookingPlan {
  args?: { service_id: string; start_time: string; notes?: string };
  note?: string;
  /** What a "yes" to the note accepts (the nearest start we can book instead). */
  offer?: Offer;
}

/** The service a new booking is for: named now, or named earlier in the window, or the one being discussed. */
function resolveService(
  messages: BaseMessage[],
  a: Analysis,
  ctx: PlanContext,
): { service?: Service; choices: Service[] } {
  if (a.services.matches.length === 1) return { service: a.services.matches[0]!, choices: [] };
  if (a.services.matches.length > 1) return { choices: a.services.matches };
  if (a.services.candidates.length === 1) return { service: a.services.candidates[0]!, choices: [] };
  if (a.services.candidates.length > 1) return { choices: a.services.candidates };
  const earlier = customerTexts(messages).slice(0, -1).reverse().slice(0, 4);
  for (const text of earlier) {
    const m = matchServices(text, ctx.services).matches;
    if (m.length === 1) return { service: m[0]!, choices: [] };
  }
  if (a.base && (a.base.status === 'pending' || a.base.status === 'proposed')) {
    const s = ctx.services.find((x) => x.id === a.base!.service_id);
    if (s) return { service: s, choices: [] };
  }
  if (ctx.services.length === 1) return { service: ctx.services[0]!, choices: [] };
  return { choices: [...ctx.services] };
}

/**
 * "deep clean + windows in one go on sat at 10": two services asked for together are two visits. Both are kept,
 * and whether they fit back to back before closing is said, so neither is dropped nor squeezed in.
 */
const clockAt = (hour: number) => formatClock({ hour, minute: 0 });

function bothServicesNote(both: Service[], w: WhenMention, ctx: PlanContext): string {
  const [x, y] = both as [Service, Service];
  let fit = '';
  let fits = Boolean(w.date);
  if (w.date && w.time) {
    const day = formatDay(w.date, ctx.timeZone);
    const last = lastStartHour(w.date, x.duration_minutes + y.duration_minutes);
    const latest = last === undefined ? '' : `; the latest start for both that day is ${clockAt(last)}`;
    // A visit holds whole crew-hours, so the second starts on the hour after the first ends.
    const second = w.time.hour + Math.ceil(x.duration_minutes / 60);
    fits = last !== undefined && w.time.hour <= last;
    fit = !fits
      ? ` Back to back from ${formatClock(w.time)} on ${day} they would not finish by closing time${latest}.`
      : ` Back to back on ${day}, that could be ${x.name} at ${formatClock(w.time)} and ${y.name} at ` +
        `${clockAt(second)}.`;
  }
  return (
    `I'd be happy to book ${x.name} (about ${durationText(x.duration_minutes)}) and ${y.name} ` +
    `(about ${durationText(y.duration_minutes)}). Each is booked as its own visit.${fit} ` +
    `Which ${fits ? '' : 'day and '}start time would you like for each?`
  );
}

/** A new booking: book_slot arguments when service, day and time are all clear, else the question to ask. */
export function planBooking(messages: BaseMessage[], a: Analysis, ctx: PlanContext): BookingPlan {
  const { service, choices } = resolveService(messages, a, ctx);
  const outside = visitOutsideArea(a.text);
  if (outside)
    return {
      note:
        `I'm sorry, ${outside} is outside our service area, so we can't book a visit there. ` +
        'Is there an address inside the area where you would like it instead? Tell me where and I will gladly book it.',
    };
  const w = withLastStart(
    onWeekendsOnlyDay(a.answersBookingQuestion ? withEarlierWhen(messages, a.when, ctx) : a.when, ctx),
    service?.duration_minutes,
  );
  if (!service && a.services.joined && choices.length === 2) return { note: bothServicesNote(choices, w, ctx) };
  const missing: string[] = [];
  let start: string | undefined;
  let timeQuestion: string | undefined;
  let offer: Offer | undefined;
  const today = localOf(ctx.now, ctx.timeZone);
  const isToday =
    w.date && w.date.year === today.year && w.date.month === today.month && w.date.day === today.day && !w.weekdayOnly;
  if (isToday && !(w.time && combine(w.date!, w.time, { nowIso: ctx.now, timeZone: ctx.timeZone }).inPast)) {
    // Online booking starts tomorrow; the help centre says how to get someone today.
    const kb = answerFromKb(a.text, ctx)?.text.replace(
      / (Would you like me to book|Is there anything else)[\s\S]*$/,
      '',
    );
    return {
      note: [
        kb,
        "I can't book a visit for today from here: bookings start from tomorrow. Would another day work for you?",
      ]
        .filter(Boolean)
        .join('\n\n'),
    };
  }
  const calendar = w.conflict || w.alternatives || w.dayOrHour ? undefined : calendarQuestion(w, service, ctx);
  if (w.conflict) {
    timeQuestion = conflictQuestion(w.conflict, ctx.timeZone);
  } else if (w.dayOrHour) {
    timeQuestion = dayOrHourQuestion(w.dayOrHour, w.date, ctx.timeZone);
  } else if (w.alternatives) {
    timeQuestion = `Which day would you like: ${w.alternatives.map((d) => formatDay(d, ctx.timeZone)).join(' or ')}?`;
    // "the 2nd one", "the later one": with the service and the time known, the answer picks a whole visit.
    if (service && w.time) {
      const time = w.time;
      offer = {
        kind: 'alternatives',
        service_id: service.id,
        options: w.alternatives.map((d) => {
          const iso = combine(d, time, { weekdayOnly: false, nowIso: ctx.now, timeZone: ctx.timeZone }).iso;
          return { start_time: iso, label: formatWhen(iso, ctx.timeZone) };
        }),
      };
    }
  } else if (calendar) {
    timeQuestion = calendar.note;
    offer = calendar.offer;
  } else if (w.ambiguous) {
    const [am, pm] = w.ambiguous.options;
    timeQuestion =
      `Just to be sure: did you mean ${formatClock(am)} or ${formatClock(pm)}` +
      `${w.date ? ` on ${formatDay(w.date, ctx.timeZone)}` : ''}? (Our visits start ${visitHours()}.)`;
  } else if (w.date && w.time) {
    const c = combine(w.date, w.time, { weekdayOnly: w.weekdayOnly, nowIso: ctx.now, timeZone: ctx.timeZone });
    if (c.inPast)
      timeQuestion =
        `${formatDay(w.date, ctx.timeZone)} at ${formatClock(w.time)} has already passed. ` +
        'Which day and time would you like instead?';
    else {
      const outside = startOutsidePresence(a.text, w.time);
      if (outside)
        timeQuestion =
          `You asked for ${formatClock(w.time)}, but said you're there ` +
          `${outside.kind === 'from' ? 'from' : 'until'} ${formatClock(outside.said)}. ` +
          `What start would suit you on ${formatDay(w.date, ctx.timeZone)}?`;
      else start = c.iso;
    }
  } else if (w.date) {
    missing.push(
      `what time on ${formatDay(w.date, ctx.timeZone)} ` +
        `(for example ${timeChoices(undefined, timeOptions(w.hint), ctx.timeZone)})`,
    );
  } else if (w.time) {
    missing.push(`which day you'd like ${formatClock(w.time)}`);
  } else if (w.vague) {
    missing.push(`which day ${w.vague} works for you, and at what time`);
  } else {
    missing.push(
      `which day and time work for you${
        w.hint ? ` (in the ${w.hint}, for example ${timeChoices(undefined, timeOptions(w.hint), ctx.timeZone)})` : ''
      }`,
    );
  }
  if (!service) missing.unshift(`which service you'd like (${listServices(choices.length ? choices : ctx.services)})`);
  // A visit at someone else's home is asked about with the rest, so the next answer is not short of it.
  const elsewhere = visitElsewhere(a.text);
  if (elsewhere && missing.length)
    missing.push(`the full address of ${elsewhere} (street, any unit number, town and postal code)`);
  if (service && start && !missing.length && !timeQuestion) {
    const notes = bookingNotes(a);
    const args = { service_id: service.id, start_time: start, ...(notes ? { notes } : {}) };
    return siteQuestion(a.text, service, args, ctx) ?? { args };
  }
  const what = service ? `${service.name}` : 'a visit';
  const parts = [`I'd be happy to book ${what} for you.`];
  if (missing.length) parts.push(`Could you tell me ${joinList(missing)}?`);
  if (timeQuestion) parts.push(timeQuestion);
  return { note: parts.join(' '), ...(offer && service && !missing.length ? { offer } : {}) };
}

/** Words before a place that put someone's past or origin there, not the visit ("we used to live in …"). */
const NOT_THE_VISIT = /\b(?:live[ds]?|living|used to|moved|from|grew up|born)\b[^,.;!?]*$/i;

/** "at her place in <a town we don't serve>": a visit there can't be booked, whatever else it leaves open. */
function visitOutsideArea(text: string): string | undefined {
  const place = namedPlace(text);
  if (!place || place.served) return undefined;
  const at = new RegExp(String.raw`\b(?:in|at|to)\s+${escapeRe(place.name)}\b`, 'i').exec(text);
  return at && !NOT_THE_VISIT.test(text.slice(Math.max(0, at.index - 40), at.index)) ? place.name : undefined;
}

/**
 * What a complete booking request still leaves open: a visit at another home needs its address, and an
 * installation asked for a thing that failed may be a repair we don't do. Asked before anything is proposed.
 */
function siteQuestion(
  text: string,
  service: Service,
  args: { service_id: string; start_time: string; notes?: string },
  ctx: PlanContext,
): BookingPlan | undefined {
  const when = formatWhen(args.start_time, ctx.timeZone);
  // "mount it on the brick wall above the fireplace": what the help centre says we don't do is not booked as asked.
  const limit = kbCaveat(text, ctx);
  if (limit)
    return {
      note:
        `${limit.replace(/^Please note that our/, 'Our')} Is there another spot we could do it instead, ` +
        `so I can book ${service.name} on ${when}?`,
    };
  const scope = scopeQuestion(text, service, when, ctx);
  if (scope) {
    if (!ctx.customer) return { note: scope };
    return {
      note: scope,
      offer: { kind: 'propose', tool: 'book_slot', args: { customer_id: ctx.customer.id, ...args } },
    };
  }
  const elsewhere = visitElsewhere(text);
  if (elsewhere) {
    const there = /^(?:one|either|any) of /.test(elsewhere) ? 'of the one you mean' : 'there';
    return {
      note:
        `I'd be happy to book ${service.name} on ${when} at ${elsewhere}. We can visit an address other than ` +
        `your own as long as it's inside our service area: what is the full address ${there} (street, any unit ` +
        'number, town and postal code), and who will let the technician in?',
      offer: { kind: 'site', args },
    };
  }
  if (inspectionOfInstalled(text, service)) {
    return {
      note:
        `Our ${service.name} service fits a new one that you supply; we don't inspect or repair the one you ` +
        `have. Is the visit to put in a new one, so I can request ${service.name} on ${when}, or is something ` +
        'wrong with the one you have?',
    };
  }
  if (!repairOrReplace(text, service)) return undefined;
  const note =
    `Sorry to hear that. Our ${service.name} service fits a new one that you supply; we don't repair the old ` +
    `one. Do you have a replacement ready, so I can request ${service.name} on ${when}?`;
  if (!ctx.customer) return { note };
  return { note, offer: { kind: 'propose', tool: 'book_slot', args: { customer_id: ctx.customer.id, ...args } } };
}

/** A request reaching past what the service covers: the part left out is said, and booking the rest is asked. */
function scopeQuestion(text: string, service: Service, when: string, ctx: PlanContext): string | undefined {
  const left = partNotIncluded(text, service);
  if (left)
    return (
      `I'd be happy to book ${service.name} on ${when}, but not all of what you asked is part of it: ` +
      `${left.sentence} Shall I book it without that part?`
    );
  const job = jobNoServiceCovers(text, ctx.services);
  if (job)
    return (
      `I can book ${service.name} on ${when}, but we don't offer a service to ${job}. ` +
      `Shall I book just ${service.name}, without that?`
    );
  return undefined;
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The day nearest `d` (within three days either side) that falls on `weekday`: "Thursday the 16th" → the 17th. */
function nearestWeekday(d: LocalDate, weekday: number): LocalDate {
  const shift = ((((weekday - addDays(d, 0).weekday) % 7) + 10) % 7) - 3;
  const { year, month, day } = addDays(d, shift);
  return { year, month, day };
}

/** "saturday 12": the 12th at a time not yet said, or Saturday at noon? */
function dayOrHourQuestion(
  either: NonNullable<WhenMention['dayOrHour']>,
  weekday: LocalDate | undefined,
  timeZone: string,
): string {
  const onDay = formatDay(either.date, timeZone);
  const atHour = `${formatDay(weekday ?? either.date, timeZone)} at ${formatClock(either.time)}`;
  return weekday && !sameDay(weekday, either.date)
    ? `Just to be sure: did you mean ${atHour}, or ${onDay}, and if so at what time?`
    : `Just to be sure: did you mean ${atHour}, or another time on ${onDay}?`;
}

/** "Monday the 15th" when the 15th is a Tuesday: which of the two did they mean? */
export function conflictQuestion(c: NonNullable<WhenMention['conflict']>, timeZone: string): string {
  const monthDay = formatDay(c.date, timeZone).replace(/^\w+, /, '');
  return (
    `Just to check: ${monthDay} is a ${formatDay(c.date, timeZone).split(',')[0]}, not a ${WEEKDAY_NAMES[c.said]}. ` +
    `Did you mean ${formatDay(c.date, timeZone)}, or ${formatDay(nearestWeekday(c.date, c.said), timeZone)}?`
  );
}

/** `d`, moved on by weeks until it falls in the week (Monday to Sunday) after the one of `today`. */
export function inNextWeek(d: LocalDate, today: LocalDate & { weekday: number }): LocalDate {
  const nextMonday = addDays(today, (8 - today.weekday) % 7 || 7);
  let out = addDays(d, 0);
  while (Date.UTC(out.year, out.month - 1, out.day) < Date.UTC(nextMonday.year, nextMonday.month - 1, nextMonday.day))
    out = addDays(out, 7);
  return { year: out.year, month: out.month, day: out.day };
}

/**
 * "this weekend" when we open on one day of it (Sundays closed): that day, the only one it can mean. "next
 * weekend" stays a question: the coming one or the one after.
 */
function onWeekendsOnlyDay(w: WhenMention, ctx: PlanContext): WhenMention {
  if (w.date || !w.vague || !/^this\s+weekend$/i.test(w.vague.trim())) return w;
  const today = localOf(ctx.now, ctx.timeZone);
  const saturday = addDays(today, today.weekday === 0 ? -1 : 6 - today.weekday);
  const open = [saturday, addDays(saturday, 1)].filter(
    (d) => openingHours(d) && Date.UTC(d.year, d.month - 1, d.day) > Date.UTC(today.year, today.month - 1, today.day),
  );
  if (open.length !== 1) return w;
  const { year, month, day } = open[0]!;
  const { vague: _vague, ...rest } = w;
  return { ...rest, date: { year, month, day } };
}

/** The day or time the customer gave earlier in this booking dialogue, where this message gives none. */
function withEarlierWhen(messages: BaseMessage[], when: WhenMention, ctx: PlanContext): WhenMention {
  let out = when;
  for (const text of customerTexts(messages).slice(0, -1).reverse().slice(0, 3)) {
    const e = onWeekendsOnlyDay(extractWhen(text, ctx.now, ctx.timeZone), ctx);
    // "…next week?" then "tuesday, first thing": the Tuesday of next week.
    if (out.date && out.weekdayOnly && !e.date && e.vague && /\bnext week\b/i.test(e.vague))
      out = { ...out, date: inNextWeek(out.date, localOf(ctx.now, ctx.timeZone)) };
    if (!out.date && e.date) out = { ...out, date: e.date, weekdayOnly: e.weekdayOnly };
    if (!out.time && !out.ambiguous && e.time) out = { ...out, time: e.time };
  }
  return out;
}

function bookingNotes(a: Analysis, extra?: string): string | undefined {
  const fromText = visitNotes(a.text);
  const prefs = extractPreferences(a.text);
  const eco =
    prefs.eco_products === true && !(fromText && /\beco/i.test(fromText))
      ? 'Please use eco-friendly products'
      : undefined;
  const all = [extra, fromText, eco].filter(Boolean).join('. ');
  return all ? clip(all, 1000) : undefined;
}

/** A change to the booking under discussion ("make it 3pm", "same time next week"). */
export function planReschedule(a: Analysis, ctx: PlanContext, base: BaseBooking): BookingPlan {
  const tz = ctx.timeZone;
  const service = a.services.matches.length === 1 ? a.services.matches[0]! : undefined;
  const serviceId = service?.id ?? base.service_id;
  const w = withLastStart(a.when, ctx.services.find((s) => s.id === serviceId)?.duration_minutes);
  let start: string | undefined;
  if (w.conflict) return { note: conflictQuestion(w.conflict, tz) };
  if (a.cues.sameTimeNextWeek) start = shiftDays(base.start_time, 7, tz);
  else if (a.cues.relativeShiftMinutes !== undefined && !w.time)
    start = shiftMinutes(base.start_time, a.cues.relativeShiftMinutes, tz);
  else if (a.cues.relativeShiftDays !== undefined && !w.date && !w.time)
    start = shiftDays(base.start_time, a.cues.relativeShiftDays, tz);
  else if (w.ambiguous) {
    const [am, pm] = w.ambiguous.options;
    return {
      note: `Just to be sure: did you mean ${formatClock(am)} or ${formatClock(pm)}? Our visits start ${visitHours()}.`,
    };
  } else if (w.vague && !w.date) {
    // "move it to next week sometime": a span, not a day, so which day in it is asked.
    const what = serviceName(ctx.services, serviceId);
    return {
      note:
        `Sure. Which day ${w.vague} would you like ${what} instead, and at what time? ` +
        `It's requested for ${formatWhen(base.start_time, tz)} now.`,
    };
  } else {
    const b = localOf(base.start_time, tz);
    const date = w.date ?? { year: b.year, month: b.month, day: b.day };
    const time = w.time ?? { hour: b.hour, minute: b.minute };
    if (!w.date && !w.time && !service) {
      return { note: `Sure. What day or time would you like instead of ${formatWhen(base.start_time, tz)}?` };
    }
    const c = combine(date, time, { weekdayOnly: w.weekdayOnly ?? false, nowIso: ctx.now, timeZone: tz });
    if (c.inPast)
      return { note: `${formatWhen(c.iso, tz)} has already passed. Which day and time would you like instead?` };
    start = c.iso;
  }
  if (new Date(start).getTime() <= new Date(ctx.now).getTime()) {
    return { note: `${formatWhen(start, tz)} has already passed. Which day and time would you like instead?` };
  }
  if (
    serviceId === base.service_id &&
    new Date(start).getTime() === new Date(base.start_time).getTime() &&
    base.status === 'pending'
  ) {
    return {
      note:
        "That's the same as the request already waiting for approval: " +
        `${serviceName(ctx.services, serviceId)} on ${formatWhen(start, tz)}.`,
    };
  }
  // A booking already made is moved with reschedule_booking (intents/booking-change); what gets
  // here is a request changed, or an extra visit ("same time next week too").
  const notes = bookingNotes(a, base.notes);
  return { args: { service_id: serviceId, start_time: start, ...(notes ? { notes } : {}) } };
}

/** Booking requests of this thread waiting for a manager, as bookings a change can be made to. */
function openRequests(ctx: PlanContext): BaseBooking[] {
  return ctx.pending.flatMap((p) =>
    p.tool === 'book_slot' && typeof p.args.service_id === 'string' && typeof p.args.start_time === 'string'
      ? [
          {
            service_id: p.args.service_id,
            start_time: p.args.start_time,
            ...(typeof p.args.notes === 'string' ? { notes: p.args.notes } : {}),
            source: 'pending' as const,
            status: 'pending' as const,
            approval_id: p.approval_id,
          },
        ]
      : [],
  );
}

/**
 * Our last proposal asked for one booking: "make it 3pm" right after it is about that one (the latest
 * request, the change's usual base), however many others still wait.
 */
function lastProposalWasOne(messages: BaseMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!AIMessage.isInstance(m)) continue;
    const booked = (m.tool_calls ?? []).filter((c) => c.name === 'book_slot').length;
    if (booked) return booked === 1;
  }
  return false;
}

/**
 * "my booking", "our appointment": a visit named as theirs but not which one. "it" right after a request is
 * that request; "my booking" while two of theirs wait is either.
 */
const GENERIC_OWN_VISIT = /\b(?:my|our)\s+(?:booking|appointment|visit|reservation|slot)\b/;

/**
 * A change ("move it to thursday") while several booking requests wait: the one whose service the
 * message names, else the question which one, each option carrying what the change makes of it.
 * Undefined when at most one request waits (the change is planned as usual).
 */
export function planRequestChange(messages: BaseMessage[], a: Analysis, ctx: PlanContext): BookingPlan | undefined {
  const open = openRequests(ctx);
  if (open.length < 2 || (lastProposalWasOne(messages) && !GENERIC_OWN_VISIT.test(normalize(a.text)))) return undefined;
  const named = open.filter((b) => a.services.matches.some((s) => s.id === b.service_id));
  if (named.length === 1) return planReschedule({ ...a, services: { matches: [], candidates: [] } }, ctx, named[0]!);
  const options = open.flatMap((b) => {
    const r = planReschedule(a, ctx, b);
    if (!r.args) return [];
    const label = `${serviceName(ctx.services, b.service_id)}, requested for ${formatWhen(b.start_time, ctx.timeZone)}`;
    return [
      { service_id: b.service_id, requested: b.start_time, label, args: { customer_id: ctx.customer?.id, ...r.args } },
    ];
  });
  const listed = open.map(
    (b, i) =>
      `${i + 1}. ${serviceName(ctx.services, b.service_id)}, requested for ${formatWhen(b.start_time, ctx.timeZone)}`,
  );
  return {
    note:
      `You have ${open.length} requests waiting for approval:\n${listed.join('\n')}\n` +
      'Which one would you like to change?',
    ...(options.length === open.length ? { offer: { kind: 'which_request' as const, options } } : {}),
  };
}
