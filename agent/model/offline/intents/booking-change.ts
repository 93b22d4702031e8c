import type { BaseMessage } from '@langchain/core/messages';
import { addDays } from '../../../../core/time.js';
import { openingHours } from '../../../../schema/business/calendar.js';
import { changeFee } from '../../../../schema/business/change-policy.js';
import { approvalEventOf, type PlanContext } from '../../../plan-context.js';
import { findBaseBooking, type Offer, type OfflineMeta } from '../conversation.js';
import type { Analysis } from '../analysis/analyze.js';
import {
  BOOKING_CHANGE_TOOLS,
  CHANGE_TOOLS,
  cancelReason,
  changeCues,
  onlyDayDoesntSuit,
  pickBooking,
  splitChange,
  upcomingOf,
  type ChangeKind,
  type UpcomingBooking,
} from '../analysis/booking-change.js';
import { detectCues, isInformationQuestion } from '../analysis/cues.js';
import { matchServices } from '../analysis/services.js';
import { formatPrice, isRecord, normalize, ordinalOf } from '../analysis/text.js';
import {
  combine,
  extractWhen,
  formatClock,
  formatDay,
  formatWhen,
  type LocalDate,
  sameDay,
  localOf,
  shiftDays,
  shiftMinutes,
  type TimeHint,
  timeOptions,
  type WhenMention,
  withLastStart,
} from '../analysis/when.js';
import {
  bookingLabel,
  changeProposalText,
  feePolicyText,
  goneText,
  newTimeQuestion,
  noBookingsText,
  partOfDayQuestion,
  passedQuestion,
  sameTimeQuestion,
  vagueSpanQuestion,
  unmatchedBookingQuestion,
  whichBookingQuestion,
} from '../replies/booking-changes.js';
import { lookupText, timeChoices } from '../replies/templates.js';
import { calendarQuestion } from './booking-calendar.js';
import { conflictQuestion, inNextWeek } from './booking.js';
import { say, type PlannedCall, type PlannedTurn } from './turn.js';

/*
 * Moving or cancelling a booking the customer already has (not a booking request of this thread:
 * that one is superseded or withdrawn instead). The bookings are looked up first; then the one
 * meant is picked from the words (or asked about), and reschedule_booking / cancel_booking is
 * proposed with the fee the change policy sets.
 */

export type BookingChangeOffer = Extract<Offer, { kind: 'booking_change' }>;

/** The first step: the customer's own record, to see the bookings. */
export const changeLookup = (customerId: string): PlannedCall => ({
  name: 'lookup_customer',
  args: { customer_id: customerId },
});

/** "it", "that one", "that booking": the booking the conversation is about. */
const PRONOUN = /\b(?:it|(?:that|this) (?:one|booking|appointment|visit|reservation))\b/i;

/**
 * Bookings the conversation is already about, most recent first: a move or cancellation waiting
 * for a manager, then bookings made or changed in the window. "Move it" means one of these.
 */
function bookingsInFocus(messages: BaseMessage[], ctx: PlanContext): string[] {
  const ids: string[] = [];
  for (const p of [...ctx.pending].reverse())
    if (BOOKING_CHANGE_TOOLS.has(p.tool) && typeof p.args.booking_id === 'string') ids.push(p.args.booking_id);
  for (let i = messages.length - 1; i >= 0; i--) {
    const e = approvalEventOf(messages[i]!);
    if (!e) continue;
    if (BOOKING_CHANGE_TOOLS.has(e.tool) && typeof e.args.booking_id === 'string') ids.push(e.args.booking_id);
    const booked = isRecord(e.result) && isRecord(e.result.booking) ? e.result.booking.id : undefined;
    if (typeof booked === 'string') ids.push(booked);
  }
  const base = findBaseBooking(messages, ctx);
  if (base?.booking_id) ids.push(base.booking_id);
  return [...new Set(ids)];
}

/** Words that name the day itself, not only its date: a weekday, "today", "tomorrow", a holiday. */
const NAMES_DAY = new RegExp(
  String.raw`\b(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|today|tomorrow|` +
    String.raw`christmas|new year'?s?|thanksgiving)\b`,
);

/** The start a relative change counts from: the time a pending move of this booking asks for, else its own. */
function referenceStart(b: UpcomingBooking, ctx: PlanContext): string {
  const move = [...ctx.pending].reverse().find((p) => p.tool === 'reschedule_booking' && p.args.booking_id === b.id);
  return typeof move?.args.new_start_time === 'string' ? move.args.new_start_time : b.starts_at;
}

type NewStart = { iso: string } | { question: string } | { missing: true };

const UNTIL_CLOCK = /\b(?:till|until|til|'til)\s+\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?/gi;

/** Whether a start hour lies in the part of the day the customer named. */
const HINT_HOURS: Record<TimeHint, (hour: number) => boolean> = {
  morning: (h) => h < 12,
  afternoon: (h) => h >= 12 && h < 17,
  evening: (h) => h >= 17,
};

/** "this thursday", "next thursday", "the thursday after": a weekday already pinned to a week. */
const QUALIFIED_WEEKDAY = new RegExp(
  String.raw`\b(?:this|next|coming|following|upcoming|the)\s+(?:mon|tue|wed|thu|fri|sat|sun)|` +
    String.raw`(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s+(?:after|week)`,
  'i',
);

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** "the friday before", "the monday after": a weekday counted from the visit's day. */
const WEEKDAY_FROM_VISIT = new RegExp(
  String.raw`\bthe ((?:mon|tues|wednes|thurs|fri|satur|sun)day) (before|after)` +
    String.raw`(?=\s*(?:[,.!?]|$|instead|same|at\b|please|pls|then))`,
);

/** The day of `day`'s weekday in the Monday-to-Sunday week of `visit`. */
function sameWeekday(visit: LocalDate & { weekday: number }, day: LocalDate): LocalDate {
  const wd = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
  return addDays(visit, ((wd + 6) % 7) - ((visit.weekday + 6) % 7));
}

const weekdayName = (d: LocalDate) =>
  new Date(Date.UTC(d.year, d.month - 1, d.day)).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });

/**
 * What the answer to our question leaves open, taken from what was said before it: "to fri afternoon"
 * then "2pm" is 2 PM that Friday; "next week, 10am" then "friday the 18th" is 10 AM that Friday.
 */
function withPrior(w: WhenMention, prior: string | undefined, ctx: PlanContext): WhenMention {
  if (!prior || w.ambiguous) return w;
  const p = extractWhen(prior, ctx.now, ctx.timeZone);
  if (p.ambiguous || !(w.date || w.time)) return w;
  // "to next week sometime" then "tuesday": the Tuesday of next week.
  if (w.date && w.weekdayOnly && !p.date && p.vague && /\bnext week\b/i.test(p.vague))
    w = { ...w, date: inNextWeek(w.date, localOf(ctx.now, ctx.timeZone)), weekdayOnly: false };
  if (w.date && w.time) return w;
  if (!w.date && p.date && !p.conflict) return { ...w, date: p.date, ...(p.weekdayOnly ? { weekdayOnly: true } : {}) };
  if (!w.time && p.time) return { ...w, time: p.time };
  return w;
}

/** The new start a move asks for: from the words after "to", "same time next week", "an hour later". */
function newStart(b: UpcomingBooking, target: string, full: string, ctx: PlanContext, prior?: string): NewStart {
  const tz = ctx.timeZone;
  const ref = referenceStart(b, ctx);
  const cues = detectCues(full);
  // "from this sat to the sat after": a day counted from the booking's own.
  const booked = localOf(ref, tz);
  // "an hour later tmrw? got a dentist thing that runs till 2:30": a time things last until is no new start.
  const until = [...full.matchAll(UNTIL_CLOCK)].map((m) => m[0].replace(/^\S+\s+/, '').trim());
  const said =
    cues.relativeShiftMinutes === undefined
      ? target
      : until.includes(target.trim())
        ? ''
        : target.replace(UNTIL_CLOCK, ' ');
  const w = withLastStart(
    withPrior(extractWhen(said, ctx.now, tz, { year: booked.year, month: booked.month, day: booked.day }), prior, ctx),
    ctx.services.find((s) => s.id === b.service_id)?.duration_minutes,
  );
  // "to Friday the 17th" when the 17th is a Thursday: which of the two is theirs to say.
  if (w.conflict) return { question: conflictQuestion(w.conflict, tz) };
  // "earlier? mon or tue?": two days offered, and which one (and when in it) is theirs to say.
  if (w.alternatives && /\bor\b/.test(normalize(said)))
    return {
      question:
        `Sure. Which day would you like your ${b.service_name} moved to: ` +
        `${w.alternatives.map((d) => formatDay(d, tz)).join(' or ')}, and at what time? ` +
        `It's booked for ${formatWhen(b.starts_at, tz)} now.`,
    };
  // "to the friday before, same time": that weekday counted from the visit's own day, at its time unless one is said.
  const counted = WEEKDAY_FROM_VISIT.exec(normalize(full));
  if (counted) {
    const want = WEEKDAYS.indexOf(counted[1]!.slice(0, 3));
    const step = counted[2] === 'before' ? -1 : 1;
    let day = addDays(booked, step);
    while (day.weekday !== want) day = addDays(day, step);
    const at = w.time ?? { hour: booked.hour, minute: booked.minute };
    const iso = combine(day, at, { weekdayOnly: false, nowIso: ctx.now, timeZone: tz }).iso;
    return new Date(iso).getTime() <= new Date(ctx.now).getTime() ? { question: passedQuestion(iso, tz) } : { iso };
  }
  let iso: string;
  if (cues.sameTimeNextWeek) iso = shiftDays(ref, 7, tz);
  else if (cues.relativeShiftMinutes !== undefined && !w.time) iso = shiftMinutes(ref, cues.relativeShiftMinutes, tz);
  else if (
    cues.relativeShiftDays !== undefined &&
    // "the fan install on the 18th … one day earlier": the day named is the visit's own, counted from.
    (!w.date || sameDay(w.date, booked)) &&
    !w.ambiguous
  ) {
    // "push it back a day": the booked day moves, the time stays unless another is named ("…, at 2 then").
    const day = localOf(shiftDays(ref, cues.relativeShiftDays, tz), tz);
    const at = w.time ?? { hour: day.hour, minute: day.minute };
    iso = combine(day, at, { weekdayOnly: false, nowIso: ctx.now, timeZone: tz }).iso;
  } else if (w.ambiguous) {
    const [am, pm] = w.ambiguous.options;
    return { question: `Just to be sure: did you mean ${formatClock(am)} or ${formatClock(pm)}?` };
  } else if (w.vague && !w.date) {
    // "to next week sometime", "next week at 3": a span, not a day; which day in it is the customer's to say.
    return { question: vagueSpanQuestion(b, w.vague, tz) };
  } else if (w.date || w.time) {
    const r = localOf(ref, tz);
    const date = w.date ?? { year: r.year, month: r.month, day: r.day };
    // "monday the 21st, sometime in the afternoon": a visit booked for the morning keeps no start of its own there.
    if (!w.time && w.hint && HINT_HOURS[w.hint](r.hour) === false) {
      const starts = timeChoices(undefined, timeOptions(w.hint), tz);
      return { question: partOfDayQuestion(b, date, w.hint, starts, tz) };
    }
    const time = w.time ?? { hour: r.hour, minute: r.minute };
    // "can the tv mounting (wed 16th) be thursday instead?": the coming Thursday, or the one of the visit's week.
    const weekOfVisit =
      w.date && w.weekdayOnly && !QUALIFIED_WEEKDAY.test(said) ? sameWeekday(booked, w.date) : undefined;
    const today = localOf(ctx.now, tz);
    if (
      weekOfVisit &&
      !sameDay(weekOfVisit, w.date!) &&
      !sameDay(weekOfVisit, booked) &&
      // A closed day ("to sunday") is tried as it is: the refusal offers the open days around it.
      openingHours(weekOfVisit) &&
      Date.UTC(weekOfVisit.year, weekOfVisit.month - 1, weekOfVisit.day) >
        Date.UTC(today.year, today.month - 1, today.day)
    )
      return {
        question:
          `Just to be sure: which ${weekdayName(w.date!)} would you like your ${b.service_name} moved to, ` +
          `${formatDay(w.date!, tz)} or ${formatDay(weekOfVisit, tz)}? ` +
          `It's booked for ${formatWhen(b.starts_at, tz)} now.`,
      };
    iso = combine(date, time, { weekdayOnly: w.weekdayOnly ?? false, nowIso: ctx.now, timeZone: tz }).iso;
  } else if (w.hint && HINT_HOURS[w.hint](booked.hour) === false) {
    // "swap the thermostat install to the morning": the same day, another part of it; which start is asked.
    const starts = timeChoices(undefined, timeOptions(w.hint), tz);
    return { question: partOfDayQuestion(b, booked, w.hint, starts, tz) };
  } else return { missing: true };
  if (new Date(iso).getTime() <= new Date(ctx.now).getTime()) return { question: passedQuestion(iso, tz) };
  return { iso };
}

function feeFor(kind: ChangeKind, b: UpcomingBooking, ctx: PlanContext) {
  if (!b.starts_at) return undefined;
  const price = b.price_cents ?? ctx.services.find((s) => s.id === b.service_id)?.price_cents ?? 0;
  return changeFee(kind, { startsAt: new Date(b.starts_at), now: new Date(ctx.now), priceCents: price });
}

interface ChangeRequest {
  kind: ChangeKind;
  bookings: UpcomingBooking[];
  /** The words naming the booking, and those giving the new time (a move). */
  which: string;
  target: string;
  /** The whole message, for "same time next week" and "an hour later". */
  full: string;
  preferred?: string[];
  pronoun?: boolean;
  /** The bookings were listed to the customer: "the second one" picks by position. */
  listed?: boolean;
  reason?: string;
  /** The words that gave part of the new time before we asked for the rest. */
  prior?: string;
}

const offerOf = (r: ChangeRequest, bookings: UpcomingBooking[], extra: Partial<BookingChangeOffer> = {}) => ({
  offer: {
    kind: 'booking_change' as const,
    change: r.kind,
    bookings,
    ...(r.target ? { target: r.target } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    ...extra,
  },
});

/** The change call for the booking meant, or the question that still has to be asked. */
function resolveChange(r: ChangeRequest, ctx: PlanContext, customerId: string): PlannedTurn {
  if (!r.bookings.length) return say(noBookingsText(r.kind));
  const pick = pickBooking(r.bookings, r.which, ctx, {
    ...(r.preferred ? { preferred: r.preferred } : {}),
    ...(r.listed ? { listed: true } : {}),
    ...(r.pronoun ? { pronoun: true } : {}),
  });
  if (!pick.chosen) {
    // "could the thermostat install happen earlier? mon or tue?": the one booking of the service named, and the
    // days said are where it should go, not which booking it is.
    const named = matchServices(r.full, ctx.services).matches;
    const ofService = r.bookings.filter((b) => named.some((s) => s.id === b.service_id));
    if (pick.unmatched && r.kind === 'reschedule' && !r.target && ofService.length === 1) {
      const b = ofService[0]!;
      const w = extractWhen(r.full, ctx.now, ctx.timeZone);
      const ownDay = w.date && b.starts_at && sameDay(w.date, localOf(b.starts_at, ctx.timeZone));
      const either = w.alternatives && /\bor\b/.test(normalize(r.full));
      if ((w.date || w.time || either) && !ownDay) return changeFor({ ...r, target: r.full }, b, ctx, customerId);
    }
    if (pick.unmatched)
      return say(unmatchedBookingQuestion(r.kind, pick.unmatched, r.bookings, ctx.timeZone), offerOf(r, r.bookings));
    const needsTime = r.kind === 'reschedule' && 'missing' in newStart(pick.candidates[0]!, r.target, r.full, ctx);
    return say(whichBookingQuestion(r.kind, pick.candidates, ctx.timeZone, needsTime), offerOf(r, pick.candidates));
  }
  return changeFor(r, pick.chosen, ctx, customerId);
}

function changeFor(r: ChangeRequest, b: UpcomingBooking, ctx: PlanContext, customerId: string): PlannedTurn {
  const tz = ctx.timeZone;
  if (r.kind === 'cancel') {
    const args = { customer_id: customerId, booking_id: b.id, ...(r.reason ? { reason: r.reason } : {}) };
    return {
      content: changeProposalText('cancel', b, undefined, feeFor('cancel', b, ctx), tz),
      calls: [{ name: CHANGE_TOOLS.cancel, args }],
    };
  }
  const waitForTime = offerOf({ ...r, target: '' }, [b], { booking_id: b.id });
  // "so saturday is no good": neither a new time nor a cancellation asked; which one is theirs to say.
  if (onlyDayDoesntSuit(r.full))
    return say(`${newTimeQuestion(b, tz)} Or, if you would rather, I can cancel it.`, waitForTime);
  const when = newStart(b, r.target, r.full, ctx, r.prior);
  if ('missing' in when) return say(newTimeQuestion(b, tz), waitForTime);
  // What was said of the new time is kept for the answer to complete.
  const said = r.target || r.prior;
  if ('question' in when)
    return say(when.question, said ? offerOf({ ...r, target: said }, [b], { booking_id: b.id }) : waitForTime);
  if (b.starts_at && new Date(when.iso).getTime() === new Date(b.starts_at).getTime())
    return say(sameTimeQuestion(b, tz), waitForTime);
  // "to the 13th" when the 13th is a Sunday: a date given by its number alone may not be the day they think,
  // so a closed one is asked about. A closed day named as such ("to sunday") is tried: the refusal lists openings.
  const at = localOf(when.iso, tz);
  // "move my appointment tomorrow to 6pm": a start the day does not have for this service is said, not tried.
  if (openingHours(at)) {
    const service = ctx.services.find((s) => s.id === b.service_id);
    const calendar = calendarQuestion(
      { date: at, time: { hour: at.hour, minute: at.minute }, spans: [] },
      service,
      ctx,
    );
    if (calendar) return say(`I'd be happy to move your ${b.service_name}. ${calendar.note}`, waitForTime);
  } else if (!NAMES_DAY.test(normalize(r.target || r.full))) {
    const calendar = calendarQuestion(
      { date: at, time: { hour: at.hour, minute: at.minute }, spans: [] },
      undefined,
      ctx,
    );
    if (calendar) return say(`I'd be happy to move your ${b.service_name}. ${calendar.note}`, waitForTime);
  }
  return {
    content: changeProposalText('reschedule', b, when.iso, feeFor('reschedule', b, ctx), tz),
    calls: [
      { name: CHANGE_TOOLS.reschedule, args: { customer_id: customerId, booking_id: b.id, new_start_time: when.iso } },
    ],
  };
}

function requestFrom(kind: ChangeKind, text: string, ctx: PlanContext): Omit<ChangeRequest, 'bookings'> {
  const { which, target } = kind === 'reschedule' ? splitChange(text, ctx) : { which: text, target: '' };
  const reason = kind === 'cancel' ? cancelReason(text) : undefined;
  // "one of my Saturdays won't work any more — please cancel it": "it" is one of several, not the one just discussed.
  const pronoun = PRONOUN.test(text) && !/\bone of (?:my|our|the)\b/i.test(text);
  return { kind, which, target, full: text, pronoun, ...(reason ? { reason } : {}) };
}

/** After the lookup the change started with: the change call, or the question to ask. */
export function planChangeAfterLookup(
  messages: BaseMessage[],
  ctx: PlanContext,
  change: NonNullable<OfflineMeta['change']>,
  customerText: string,
  lookup: unknown,
): PlannedTurn {
  const bookings = upcomingOf(lookup);
  if (!ctx.customer || !bookings) return say(lookupText(lookup, 'bookings', ctx));
  if (change.feeOnly) return feeAnswer(change.kind, bookings, customerText, ctx);
  const turn = changeAfterLookup(messages, ctx, change, customerText, bookings, ctx.customer.id);
  return change.lead ? { ...turn, content: [change.lead, turn.content].filter(Boolean).join(' ') } : turn;
}

function changeAfterLookup(
  messages: BaseMessage[],
  ctx: PlanContext,
  { kind, booking_id }: NonNullable<OfflineMeta['change']>,
  customerText: string,
  bookings: UpcomingBooking[],
  customerId: string,
): PlannedTurn {
  const known = booking_id ? bookings.find((b) => b.id === booking_id) : undefined;
  if (booking_id && !known) return say(goneText(kind, booking_id));
  if (known) return changeFor({ ...requestFrom(kind, customerText, ctx), bookings: [known] }, known, ctx, customerId);
  const preferred = bookingsInFocus(messages, ctx);
  // A booking of this conversation known only by service and time (from the summary) is still "it".
  const base = findBaseBooking(messages, ctx);
  const sameAsBase = base
    ? bookings.find(
        (b) =>
          b.service_id === base.service_id && new Date(b.starts_at).getTime() === new Date(base.start_time).getTime(),
      )
    : undefined;
  if (sameAsBase) preferred.push(sameAsBase.id);
  return resolveChange({ ...requestFrom(kind, customerText, ctx), bookings, preferred }, ctx, customerId);
}

/** What moving or cancelling the booking the question names would cost now; the rule when none is told apart. */
function feeAnswer(kind: ChangeKind, bookings: UpcomingBooking[], text: string, ctx: PlanContext): PlannedTurn {
  const pick = pickBooking(bookings, text, ctx);
  const b = pick.named ? pick.chosen : undefined;
  const fee = b ? feeFor(kind, b, ctx) : undefined;
  if (!b || !fee) return say(`${feePolicyText(kind)} Is there anything else I can help with?`);
  const verbing = kind === 'cancel' ? 'cancelling' : 'moving';
  // The rule as well: when it is free now, what changes within the window; when not, when it would have been.
  const now = fee.fee_cents > 0 ? `would cost ${formatPrice(fee.fee_cents)}` : 'would be free';
  const cost = `${now}. ${feePolicyText(kind)}`;
  // "ugh fine cancel it anyway": the change of this booking, should they go ahead.
  const r = { kind, bookings: [b], which: '', target: '', full: text };
  return say(
    `Your ${bookingLabel(b, ctx.timeZone)} is ${fee.notice_hours} hours away, so ${verbing} it now ${cost} ` +
      "I haven't changed anything: just let me know if you'd like to go ahead.",
    offerOf(r, [b], { booking_id: b.id }),
  );
}

/** A yes to a cancellation we said the cost of: "yes go ahead", "cancel it anyway" (not "don't cancel it"). */
const goesAhead = (text: string): boolean => {
  const t = normalize(text);
  if (/\b(?:don'?t|do not|not|never|no need to|rather not)\b[^.!?]{0,15}\bcancel/.test(t)) return false;
  const c = changeCues(text);
  // A bare "ok thanks" takes the answer in; only words that go ahead cancel.
  return c.cancel || c.cancelPronoun || /\bcancel\b|\bgo ahead\b|\bdo it\b|\byes,? please\b/.test(t);
};

/** The customer answering our "which one?" or "to when?" about a booking change. */
/** "yes, please cancel it", "just cancel": the visit itself called off, not a request of ours taken back. */
const CANCEL_INSTEAD = new RegExp(
  String.raw`^(?:(?:yes|yeah|yep|ok|okay|no|nah|actually|hmm|ugh)[\s,.!]+)*(?:(?:please|pls|just|then)\s+)*` +
    String.raw`cancel(?: it| that| the (?:visit|booking|appointment))?(?: (?:then|instead|please|pls))?\b` +
    String.raw`(?!.*\b(?:don'?t|do not|not)\s+cancel)`,
);

export function answerChangeOffer(
  offer: BookingChangeOffer,
  a: Analysis,
  ctx: PlanContext,
  customerId: string,
): PlannedTurn | undefined {
  const text = a.text;
  // We said what cancelling one of their bookings would cost: "ugh fine cancel it anyway", "yes go ahead".
  const costed = offer.change === 'cancel' ? offer.bookings.find((x) => x.id === offer.booking_id) : undefined;
  if (costed && !a.cues.book.strong && !a.problem && goesAhead(text)) {
    const reason = cancelReason(text);
    const r = { kind: 'cancel' as const, bookings: [costed], which: '', target: '', full: text };
    return changeFor(reason ? { ...r, reason } : r, costed, ctx, customerId);
  }
  // We asked when to move a visit (offering to cancel it): "yes, please cancel it" cancels that visit instead.
  const asked = offer.change === 'reschedule' ? offer.bookings.find((x) => x.id === offer.booking_id) : undefined;
  if (asked && CANCEL_INSTEAD.test(normalize(text)) && !a.problem) {
    const reason = cancelReason(text);
    const r = { kind: 'cancel' as const, bookings: [asked], which: '', target: '', full: text };
    return changeFor(reason ? { ...r, reason } : r, asked, ctx, customerId);
  }
  // Something else asked for instead ("book a window cleaning…", "never mind"): planned as usual.
  const asks = isInformationQuestion(text) && !/^\s*(?:how|what) about\b/i.test(text); // "are you open saturday?"
  if (a.cues.book.strong || a.problem || a.cues.withdraw || a.cues.lookup || asks) return undefined;
  const r: ChangeRequest = {
    kind: offer.change,
    bookings: offer.bookings,
    which: '',
    target: offer.target ?? '',
    full: text,
    listed: true,
    ...(offer.reason ? { reason: offer.reason } : {}),
  };
  if (offer.booking_id) {
    // We asked for the new time of a booking already picked (a cancellation's cost is answered above).
    const b = offer.bookings.find((x) => x.id === offer.booking_id);
    if (!b || offer.change === 'cancel') return undefined;

    if (a.services.matches.length && !a.services.matches.some((s) => s.id === b.service_id)) return undefined;
    const split = splitChange(text, ctx);
    const target = split.target || text;
    const w = extractWhen(target, ctx.now, ctx.timeZone);
    const cues = detectCues(text);
    if (
      !(w.date || w.time || w.ambiguous || w.vague) &&
      !cues.sameTimeNextWeek &&
      cues.relativeShiftMinutes === undefined &&
      cues.relativeShiftDays === undefined
    )
      return undefined;
    return changeFor({ ...r, target, ...(offer.target ? { prior: offer.target } : {}) }, b, ctx, customerId);
  }
  // We asked which booking: the answer names one (and may give the new time too).
  const split = offer.change === 'reschedule' ? splitChange(text, ctx) : { which: text, target: '' };
  // "oh right, I meant the TV mounting. Thursday the 17th at 2pm": the booking by its service, the new time beside.
  const byService = offer.bookings.filter((b) => a.services.matches.some((s) => s.id === b.service_id));
  if (offer.change === 'reschedule' && !split.target && byService.length === 1) {
    const b = byService[0]!;
    const w = extractWhen(text, ctx.now, ctx.timeZone);
    const ownDay = w.date && b.starts_at && sameDay(w.date, localOf(b.starts_at, ctx.timeZone));
    if ((w.date || w.time) && !ownDay) return changeFor({ ...r, target: text }, b, ctx, customerId);
  }
  const pick = pickBooking(offer.bookings, split.which || text, ctx, { listed: true });
  // A lone booking we asked about ("is that the one?") needs a yes or a name, not just any reply.
  const chosen = pick.chosen && (pick.named || a.cues.affirm) ? pick.chosen : undefined;
  if (!chosen) {
    const tried = pick.named || ordinalOf(text) !== undefined;
    return tried ? resolveChange({ ...r, which: split.which || text }, ctx, customerId) : undefined;
  }
  return changeFor({ ...r, target: split.target || r.target }, chosen, ctx, customerId);
}
