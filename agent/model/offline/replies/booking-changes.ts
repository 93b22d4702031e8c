import { CHANGE_POLICY, type ChangeFeeRule } from '../../../../schema/business/change-policy.js';
import type { ChangeKind, UpcomingBooking } from '../analysis/booking-change.js';
import { formatPrice, isRecord } from '../analysis/text.js';
import { formatDay, formatWhen, type LocalDate } from '../analysis/when.js';

// What the customer reads about moving and cancelling a booking they have: the fee always comes
// from the change policy (when proposing) or the tool's own result (once done).

const VERB: Record<ChangeKind, string> = { reschedule: 'move', cancel: 'cancel' };

export interface FeeLike {
  fee_cents: number;
  rule: string;
}

export function feeOf(v: unknown): FeeLike | undefined {
  return isRecord(v) && typeof v.fee_cents === 'number'
    ? { fee_cents: v.fee_cents, rule: typeof v.rule === 'string' ? v.rule : '' }
    : undefined;
}

/** "There's no fee: it's more than 24 hours before the start." / "A fee of $25 applies: …". */
export function feeText(fee: FeeLike): string {
  if (fee.fee_cents > 0) return `A fee of ${formatPrice(fee.fee_cents)} applies${fee.rule ? `: ${fee.rule}` : ''}.`;
  const why = fee.rule.replace(/^free:\s*/i, '');
  return why && why !== fee.rule ? `There's no fee: it's ${why}.` : "There's no fee for this change.";
}

/** "Deep Cleaning on Fri, Dec 11, 10:00 AM EST (BKG-2001)" */
export const bookingLabel = (b: UpcomingBooking, timeZone: string) =>
  `${b.service_name} on ${formatWhen(b.starts_at, timeZone)} (${b.id})`;

export const bookingList = (bookings: readonly UpcomingBooking[], timeZone: string) =>
  bookings.map((b, i) => `${i + 1}. ${bookingLabel(b, timeZone)}`).join('\n');

/** The text that goes with the proposed change (the graph lists the request itself after it). */
export function changeProposalText(
  kind: ChangeKind,
  b: UpcomingBooking,
  newStart: string | undefined,
  fee: FeeLike | undefined,
  timeZone: string,
): string {
  const what =
    kind === 'cancel' || !newStart
      ? `cancel your ${bookingLabel(b, timeZone)}`
      : `move your ${b.service_name} (${b.id}) from ${formatWhen(b.starts_at, timeZone)} ` +
        `to ${formatWhen(newStart, timeZone)}`;
  return `Here's the change: ${what}.${fee ? ` ${feeText(fee)}` : ''}`;
}

export function whichBookingQuestion(
  kind: ChangeKind,
  bookings: readonly UpcomingBooking[],
  timeZone: string,
  needsTime: boolean,
): string {
  return (
    `You have ${bookings.length} upcoming bookings:\n${bookingList(bookings, timeZone)}\n` +
    `Which one would you like to ${VERB[kind]}${needsTime ? ', and to which day and time' : ''}?`
  );
}

export function unmatchedBookingQuestion(
  kind: ChangeKind,
  unmatched: string,
  bookings: readonly UpcomingBooking[],
  timeZone: string,
): string {
  const lead =
    unmatched === 'that day'
      ? "I don't see a booking on that day among your upcoming bookings."
      : `I don't see a ${unmatched} among your upcoming bookings.`;
  if (bookings.length === 1)
    return `${lead} You have ${bookingLabel(bookings[0]!, timeZone)}. Is that the one you'd like to ${VERB[kind]}?`;
  return `${lead} You have:\n${bookingList(bookings, timeZone)}\nWhich one would you like to ${VERB[kind]}?`;
}

export const noBookingsText = (kind: ChangeKind) =>
  `I don't see any upcoming bookings on your account, so there's nothing to ${VERB[kind]}. ` +
  'Would you like to book a visit instead?';

export const goneText = (kind: ChangeKind, bookingId: string) =>
  `I don't see booking ${bookingId} among your upcoming bookings any more, so there's nothing to ${VERB[kind]}.`;

export const newTimeQuestion = (b: UpcomingBooking, timeZone: string) =>
  `Sure. Which day and time would you like your ${b.service_name} moved to? ` +
  `It's booked for ${formatWhen(b.starts_at, timeZone)} now.`;

export const vagueSpanQuestion = (b: UpcomingBooking, span: string, timeZone: string) =>
  `Sure. Which day ${span} would you like your ${b.service_name} moved to, and at what time? ` +
  `It's booked for ${formatWhen(b.starts_at, timeZone)} now.`;

/** "monday the 21st, sometime in the afternoon": the day is said, the start within that part of it is not. */
export const partOfDayQuestion = (b: UpcomingBooking, day: LocalDate, part: string, starts: string, timeZone: string) =>
  `Sure. What time in the ${part} on ${formatDay(day, timeZone)} would you like your ${b.service_name} moved to ` +
  `(for example ${starts})? It's booked for ${formatWhen(b.starts_at, timeZone)} now.`;

export const passedQuestion = (iso: string, timeZone: string) =>
  `${formatWhen(iso, timeZone)} has already passed. Which day and time would you like instead?`;

export const sameTimeQuestion = (b: UpcomingBooking, timeZone: string) =>
  `Your ${b.service_name} is already booked for ${formatWhen(b.starts_at, timeZone)}. ` +
  'Which day and time would you like instead?';

/** What was done, from the tool's result: moved from X to Y, or cancelled, and the fee charged. */
export function changeExecutedText(tool: string, args: Record<string, unknown>, result: unknown, timeZone: string) {
  const r = isRecord(result) ? result : {};
  const b = isRecord(r.booking) ? r.booking : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const id = str(b.id) || str(args.booking_id);
  const name = str(b.service_name) || 'booking';
  const fee = feeOf(r.fee);
  const feeLine = fee ? ` ${feeText(fee)}` : '';
  if (tool === 'reschedule_booking') {
    const to = str(b.starts_at) || str(args.new_start_time);
    const previous = isRecord(r.previous) ? str(r.previous.starts_at) : '';
    const from = previous ? ` from ${formatWhen(previous, timeZone)}` : '';
    return `Your ${name}${id ? ` (${id})` : ''} is moved${from} to ${formatWhen(to, timeZone)}.${feeLine}`;
  }
  const when = str(b.starts_at) ? ` on ${formatWhen(str(b.starts_at), timeZone)}` : '';
  return `Your ${name}${when}${id ? ` (${id})` : ''} is cancelled.${feeLine}`;
}

/** The change policy in words, for a question about what moving or cancelling costs (no booking looked at). */
export function feePolicyText(kind: ChangeKind | 'any'): string {
  const kinds: ChangeKind[] = kind === 'any' ? ['reschedule', 'cancel'] : [kind];
  const rules = kinds.flatMap((k): readonly ChangeFeeRule[] => CHANGE_POLICY[k]);
  const window = Math.min(...rules.map((r) => r.withinHours));
  const verbs = kinds.map((k) => (k === 'reschedule' ? 'moving' : 'cancelling')).join(' or ');
  const lead = `${verbs[0]!.toUpperCase()}${verbs.slice(1)} a booking is free up to ${window} hours before its start`;
  return `${lead}; ${rules.map((r) => r.label).join(', and ')}.`;
}
