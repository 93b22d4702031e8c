import type { ApprovalEvent, PlanContext } from '../../../plan-context.js';
import { describeCall, describeChanges } from '../../../describe.js';
import { BUSINESS } from '../../../../schema/business/profile.js';
import type { ToolCallLike } from '../conversation.js';
import { changeExecutedText } from './booking-changes.js';
import type { UpcomingBooking } from '../analysis/booking-change.js';
import { formatAddress } from '../analysis/entities.js';
import { serviceName } from '../analysis/services.js';
import { clip, formatPrice, isRecord, joinList } from '../analysis/text.js';
import { formatClock, formatDay, formatWhen, localOf, type LocalDate, type LocalTime } from '../analysis/when.js';
import { closedDays } from '../../../../schema/business/calendar.js';

export const firstName = (ctx: PlanContext) => ctx.customer?.name.split(/\s+/)[0] ?? '';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const withStop = (s: string) => (/[.!?…]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

// ------------------------------------------------------------------------------ small talk

export function greetingReply(ctx: PlanContext): string {
  const name = firstName(ctx);
  return (
    `Hi${name ? ` ${name}` : ''}! How can I help today? I can answer questions about our services, book a visit, ` +
    'update your contact details or look into a problem for you.'
  );
}
export const thanksReply = () => "You're welcome! Let me know if there's anything else I can help with.";
export const farewellReply = () => 'Thanks for reaching out. Have a great day!';
export const denyReply = () => 'No problem. Let me know if there is anything else I can do for you.';
export const unknownReply = () =>
  "Sorry, I'm not sure I understood. Could you tell me a bit more? For example, I can answer a question, " +
  'book a visit (tell me the service, day and time), update your email, phone or address, email you details, ' +
  'or open a ticket about a problem.';

export const UNLINKED =
  "Your Slack account isn't linked to a customer record yet, so I can't make bookings or changes, " +
  'look up an account or open tickets from here. A manager can link your account, and after that I can take care ' +
  "of it for you. In the meantime I'm happy to answer questions about our services.";

export const otherAccountReply = (who: string) =>
  `I can only look up or change your own account, so I can't do that for ${who}. ` +
  `If they're a ${BUSINESS.shortName} customer, ` +
  "they can message us from their own Slack account once it's linked to their record.";

export const INJECTION_NOTE =
  'Just so you know, I can only request changes: a manager reviews them before anything happens, ' +
  "and I can't skip that step.";

// ------------------------------------------------------------------- describing requests

// One description of a call for the whole agent (the graph's replies use it too).
export { describeCall, describeChanges };

/**
 * The text of a tool-call message. The graph lists proposed writes itself ("I've sent this request
 * to our team for approval: …") after this text, and reads and withdrawals are followed by our own
 * reply to their results, so this carries only a short lead-in; notes are added by the planner.
 */
export function proposalText(calls: ToolCallLike[]): string {
  if (calls.some((c) => c.name === 'lookup_customer')) return 'Let me check your account.';
  if (calls.length && calls.every((c) => c.name === 'withdraw_request')) return 'Okay, let me withdraw that.';
  return '';
}

// ---------------------------------------------------------------------------- tool results

function alternativesOf(details: unknown, timeZone: string): { start_time: string; label: string }[] {
  if (!isRecord(details) || !Array.isArray(details.alternatives)) return [];
  return details.alternatives
    .filter(isRecord)
    .map((alt) => {
      const start = str(alt.start_time) || str(alt.starts_at);
      return { start_time: start, label: str(alt.label) || (start ? formatWhen(start, timeZone) : '') };
    })
    .filter((alt) => alt.start_time && alt.label)
    .slice(0, 5);
}

export interface ErrorExplanation {
  text: string;
  alternatives: { start_time: string; label: string }[];
}

/** The public holiday a refused start falls on, by its name and date ("Christmas Day (Fri, Dec 25)"). */
function closedHolidayOf(call: ToolCallLike, ctx: PlanContext): string | undefined {
  const args = isRecord(call.args) ? call.args : {};
  const iso = str(args.start_time) || str(args.new_start_time);
  if (!iso || Number.isNaN(Date.parse(iso))) return undefined;
  const day = localOf(iso, ctx.timeZone);
  const holiday = closedDays(day.year).find((h) => h.month === day.month && h.day === day.day);
  return holiday ? `${holiday.names[0]} (${formatDay(day, ctx.timeZone)})` : undefined;
}

/** Why a call was refused or failed, in plain words, with any alternative times offered. */
export function explainError(call: ToolCallLike, error: unknown, ctx: PlanContext): ErrorExplanation {
  const e = isRecord(error) ? error : {};
  const code = str(e.code);
  const message = str(e.message).replace(/\s+/g, ' ').trim();
  const alternatives = alternativesOf(e.details, ctx.timeZone);
  const what = describeCall(call, ctx);
  let text: string;
  switch (code) {
    case 'slot_unavailable':
      text = `That time isn't available, so I couldn't ${what}.`;
      break;
    case 'slot_in_past':
      text = `That time has already passed, so I couldn't ${what}.`;
      break;
    case 'outside_business_hours': {
      // "push my friday clean back a week" landing on Christmas Day: the day is closed, and by name.
      const holiday = closedHolidayOf(call, ctx);
      text = holiday
        ? `We're closed on ${holiday}, so I couldn't ${what}.`
        : `That's outside our visit hours, so I couldn't ${what}.`;
      break;
    }
    case 'no_email_on_file':
      text =
        "We don't have an email address on file for you, so I couldn't send that email. " +
        'If you tell me your email address, I can ask to add it.';
      break;
    case 'not_found':
      text = `I couldn't ${what}: ${message || 'something it refers to was not found'}.`;
      break;
    case 'invalid_arguments':
      text =
        `I couldn't ${what} because some details weren't valid${message ? ` (${clip(message, 160)})` : ''}. ` +
        'Could you check them for me?';
      break;
    case 'out_of_scope':
      text = `I'm not able to ${what} from this conversation.`;
      break;
    case 'booking_not_changeable':
      text =
        "That booking can't be changed any more (it's cancelled, has already started or is over), " +
        `so I couldn't ${what}.`;
      break;
    case 'conflict':
      text =
        `I couldn't ${what} because it conflicts with something already on your account` +
        `${message ? ` (${clip(message, 160)})` : ''}.`;
      break;
    default:
      text = `I couldn't ${what}${message ? `: ${clip(message, 200)}` : '.'}`;
  }
  if (!/[.?!]$/.test(text)) text += '.';
  if (message && ['slot_unavailable', 'slot_in_past', 'outside_business_hours'].includes(code) && !alternatives.length)
    text += ` (${clip(message, 160)})`;
  if (alternatives.length) {
    text +=
      ` Here are the closest openings:\n${alternatives.map((a, i) => `${i + 1}. ${a.label}`).join('\n')}` +
      '\nWould one of these work? Just tell me which one.';
  } else if (
    (call.name === 'book_slot' || call.name === 'reschedule_booking') &&
    !['invalid_arguments', 'booking_not_changeable', 'not_found'].includes(code)
  ) {
    text += ' Would another day or time work for you?';
  }
  text += code === 'no_email_on_file' ? '' : ' Nothing was changed.';
  return { text, alternatives };
}

export function pendingText(calls: ToolCallLike[], ctx: PlanContext): string {
  if (calls.length === 1) {
    return (
      `I've sent your request to ${describeCall(calls[0]!, ctx)} to our team for approval. ` +
      "I'll let you know here as soon as a manager has decided."
    );
  }
  return (
    `I've sent these requests to our team for approval:\n${calls.map((c) => `- ${describeCall(c, ctx)}`).join('\n')}` +
    "\nI'll let you know here as soon as a manager has decided."
  );
}

/** What actually happened, from the executed call's result (falling back to its arguments). */
export function executedText(tool: string, args: Record<string, unknown>, result: unknown, ctx: PlanContext): string {
  const r = isRecord(result) ? result : {};
  switch (tool) {
    case 'book_slot': {
      const b = isRecord(r.booking) ? r.booking : {};
      const start = str(b.starts_at) || str(args.start_time);
      const name = str(b.service_name) || serviceName(ctx.services, str(b.service_id) || str(args.service_id));
      const extras = [
        str(b.id) ? `booking ${str(b.id)}` : '',
        typeof b.price_cents === 'number' ? formatPrice(b.price_cents) : '',
      ].filter(Boolean);
      return (
        `You're booked: ${name} on ${formatWhen(start, ctx.timeZone)}` +
        `${extras.length ? ` (${extras.join(', ')})` : ''}.`
      );
    }
    case 'update_customer': {
      const changed = Array.isArray(r.changed_fields) ? r.changed_fields.map(String) : undefined;
      const changes = isRecord(args.changes) ? args.changes : {};
      if (changed && changed.length === 0) return 'Your details were already up to date, so nothing needed to change.';
      const after = isRecord(r.after) ? r.after : {};
      const shown: Record<string, unknown> = {};
      for (const key of Object.keys(changes)) {
        if (changed && !changed.some((f) => f === key || f.startsWith(`${key}.`))) continue;
        shown[key] = key in after && key !== 'preferences' ? (after[key] ?? changes[key]) : changes[key];
      }
      const parts = describeChanges(Object.keys(shown).length ? shown : changes);
      return parts.length
        ? `Your details are updated: I've changed your ${joinList(parts)}.`
        : 'Your details are updated.';
    }
    case 'create_ticket': {
      const t = isRecord(r.ticket) ? r.ticket : {};
      const id = str(t.id);
      const subject = str(t.subject) || str(args.subject);
      const priority = str(t.priority) || str(args.priority);
      return (
        `I've opened ticket ${id || '(no id yet)'}${subject ? `: "${subject}"` : ''}` +
        `${priority ? ` (priority: ${priority})` : ''}. Our team will follow up with you.`
      );
    }
    case 'send_email': {
      const status = str(r.status);
      const subject = str(r.subject) || str(args.subject);
      const to = str(r.to);
      const verb = status === 'sent' ? 'has been sent' : 'is on its way';
      return `The email "${subject}" ${verb}${to ? ` to ${to}` : ''}${str(r.email_id) ? ` (${str(r.email_id)})` : ''}.`;
    }
    case 'reschedule_booking':
    case 'cancel_booking':
      return changeExecutedText(tool, args, result, ctx.timeZone);
    default:
      return 'That request has been completed.';
  }
}

/** The reply to approval updates: truthful about what happened, using the executed (edited) arguments. */
export function approvalEventText(
  e: ApprovalEvent,
  ctx: PlanContext,
  booking?: UpcomingBooking,
): { text: string; alternatives: { start_time: string; label: string }[] } {
  const call = { name: e.tool, args: e.args };
  // A move or cancellation that did not go ahead leaves the visit where it was: say where that is.
  const kept =
    booking && (e.tool === 'reschedule_booking' || e.tool === 'cancel_booking')
      ? `your ${booking.service_name} (${booking.id}) is still on ${formatWhen(booking.starts_at, ctx.timeZone)}`
      : '';
  switch (e.status) {
    case 'executed': {
      const lead = e.edited
        ? 'A manager adjusted the details of your request before approving it. '
        : 'Good news: a manager approved your request. ';
      return { text: lead + executedText(e.tool, e.args, e.result, ctx), alternatives: [] };
    }
    case 'failed': {
      const ex = explainError(call, e.error, ctx);
      return {
        text: `A manager approved your request, but it couldn't be completed. ${ex.text}`,
        alternatives: ex.alternatives,
      };
    }
    case 'rejected':
      return {
        text:
          `A manager declined the request to ${describeCall(call, ctx)}. ` +
          `${e.reason ? `The reason given: ${withStop(clip(e.reason, 300))}` : 'No reason was given.'} ` +
          `Nothing was changed${kept ? `: ${kept}` : ''}. Let me know if you'd like to try something different.`,
        alternatives: [],
      };
    case 'expired':
      return {
        text:
          `Nobody was able to review your request to ${describeCall(call, ctx)} in time, ` +
          `so it expired and nothing was changed${kept ? `: ${kept}` : ''}. Would you like me to submit it again?`,
        alternatives: [],
      };
    case 'superseded':
      return {
        text: `Your earlier request to ${describeCall(call, ctx)} was replaced by your newer one.`,
        alternatives: [],
      };
    case 'withdrawn':
      return {
        text: `Okay, I've withdrawn the request to ${describeCall(call, ctx)}. Nothing was changed.`,
        alternatives: [],
      };
    default:
      return { text: 'There is an update on your request.', alternatives: [] };
  }
}

/** "$165", "$74.50". */
const dollars = (cents: number) => `$${(cents / 100).toFixed(2).replace(/\.00$/, '')}`;

/** Answer an account question from a lookup_customer result. */
/** How a contact preference reads in a sentence. */
const CHANNEL_NAMES: Record<string, string> = { email: 'email', sms: 'text message', phone: 'a phone call' };

export function lookupText(
  result: unknown,
  focus: 'bookings' | 'tickets' | 'contact' | 'account',
  ctx: PlanContext,
): string {
  const r = isRecord(result) ? result : {};
  if (r.status === 'not_found' || !isRecord(r.customer)) {
    return r.status === 'ambiguous'
      ? "I found more than one matching account, so I can't tell which one is yours. A manager can sort that out."
      : "I couldn't find your account details right now. A manager can take a look for you.";
  }
  const c = r.customer;
  const bookings = Array.isArray(r.upcoming_bookings) ? r.upcoming_bookings.filter(isRecord) : [];
  const tickets = Array.isArray(r.open_tickets) ? r.open_tickets.filter(isRecord) : [];
  // "what time will the cleaners be finished on the 18th?": when each visit ends, from its service's length.
  const until = (b: Record<string, unknown>): string => {
    const minutes = ctx.services.find((s) => s.id === str(b.service_id))?.duration_minutes;
    const start = Date.parse(str(b.starts_at));
    if (!minutes || Number.isNaN(start)) return '';
    return ` until about ${formatClock(localOf(new Date(start + minutes * 60_000).toISOString(), ctx.timeZone))}`;
  };
  const bookingLines = bookings.map(
    (b) =>
      `- ${str(b.service_name) || serviceName(ctx.services, str(b.service_id))} ` +
      `on ${formatWhen(str(b.starts_at), ctx.timeZone)}${until(b)}` +
      `${typeof b.price_cents === 'number' ? `, ${dollars(b.price_cents)}` : ''} ` +
      `(${str(b.id)}${str(b.status) ? `, ${str(b.status)}` : ''})`,
  );
  const ticketLines = tickets.map(
    (t) =>
      `- ${str(t.id)}: "${str(t.subject)}" (${str(t.status)}${str(t.priority) ? `, ${str(t.priority)} priority` : ''})`,
  );
  const bookingsText = bookings.length
    ? `You have ${bookings.length} upcoming booking${bookings.length === 1 ? '' : 's'}:\n${bookingLines.join('\n')}`
    : "You don't have any upcoming bookings.";
  const ticketsText = tickets.length ? `Open tickets:\n${ticketLines.join('\n')}` : "You don't have any open tickets.";
  const address = isRecord(c.address)
    ? formatAddress({
        line1: str(c.address.line1),
        unit: str(c.address.unit) || null,
        city: str(c.address.city),
        postal_code: str(c.address.postal_code),
      })
    : 'none on file';
  const channel = isRecord(c.preferences) ? CHANNEL_NAMES[str(c.preferences.contact)] : undefined;
  // "which email have you got? i never get the reminder emails": how we reach them is part of the answer.
  const contactText =
    `On file: email ${str(c.email) || 'none'}, phone ${str(c.phone) || 'none'}, address ${address}.` +
    (channel ? ` Your contact preference is ${channel}, so reminders and updates go to you that way.` : '');
  const recurring = isRecord(c.preferences) ? str(c.preferences.recurring) : '';
  const planText = recurring ? ` Your recurring cleaning plan on file: ${recurring.replace(/_/g, ' ')}.` : '';
  const prefs = isRecord(c.preferences)
    ? Object.entries(c.preferences)
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v)}`)
    : [];
  switch (focus) {
    case 'bookings':
      return `${bookingsText}${planText}${bookings.length || planText ? '' : ' Would you like to book something?'}`;
    case 'tickets':
      return ticketsText;
    case 'contact':
      return contactText;
    default:
      return [
        `Here's what's on your account${firstName(ctx) ? `, ${firstName(ctx)}` : ''}:`,
        contactText,
        prefs.length ? `Preferences: ${prefs.join('; ')}.` : '',
        bookingsText,
        ticketsText,
      ]
        .filter(Boolean)
        .join('\n');
  }
}

// ------------------------------------------------------------------------ clarifications

export function listServices(services: readonly { name: string }[]): string {
  return joinList(
    services.map((s) => s.name),
    'or',
  );
}

/** "4 hours", "90 minutes": how long a visit takes, as a reply says it. */
export function durationText(minutes: number): string {
  const hours = minutes / 60;
  return Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'}` : `${minutes} minutes`;
}

export function timeChoices(date: LocalDate | undefined, times: LocalTime[], timeZone: string): string {
  const clocks = joinList(times.map(formatClock), 'or');
  return date ? `${clocks} on ${formatDay(date, timeZone)}` : clocks;
}

// ---------------------------------------------------------------------------------- email

export function emailBody(name: string, intro: string, facts: string[], outro: string): string {
  return [`Hi ${name || 'there'},`, '', intro, '', ...facts, '', outro, '', 'Best regards,', BUSINESS.name].join('\n');
}
