import { formatInZone } from '../core/time.js';
import type { PlanContext } from './plan-context.js';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "Tue, Dec 8, 10:00 AM EST", or the text as given when it isn't a time (a description never throws). */
function when(v: unknown, timeZone: string): string {
  const text = str(v);
  const t = new Date(text);
  return text && !Number.isNaN(t.getTime()) ? formatInZone(t, timeZone) : text;
}

/** A booking as the conversation may know it (lookup_customer's upcoming_bookings). */
export interface KnownBooking {
  id: string;
  starts_at: string;
  service_id?: string;
  service_name?: string;
}

type DescribeContext = {
  timeZone: string;
  services: readonly Pick<PlanContext['services'][number], 'id' | 'name'>[];
  /** The customer's bookings, when known, so a change names the visit and not only its id. */
  bookings?: readonly KnownBooking[];
};

const serviceName = (id: string, ctx: DescribeContext) =>
  ctx.services.find((s) => s.id === id)?.name ?? id.replace(/^svc_/, '').replace(/_/g, ' ');

/** "booking BKG-1002 (Deep Cleaning, Tue, Dec 8, 10:00 AM EST)", as much of it as is known. */
function describeBooking(bookingId: unknown, ctx: DescribeContext): string {
  const id = str(bookingId).trim();
  if (!id) return 'your booking';
  const b = ctx.bookings?.find((x) => x.id === id);
  if (!b) return `booking ${id}`;
  const name = b.service_name || (b.service_id ? serviceName(b.service_id, ctx) : '');
  const at = when(b.starts_at, ctx.timeZone);
  const known = [name, at === b.starts_at ? '' : at].filter(Boolean);
  return known.length ? `booking ${id} (${known.join(', ')})` : `booking ${id}`;
}

/** "a, b and c" */
const joinList = (items: string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The fields an update_customer call changes, in plain words: "phone number to 555-0100". */
export function describeChanges(changes: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (str(changes.name)) out.push(`name to ${str(changes.name)}`);
  if (str(changes.email)) out.push(`email to ${str(changes.email)}`);
  if (str(changes.phone)) out.push(`phone number to ${str(changes.phone)}`);
  if (isRecord(changes.address)) {
    const a = changes.address;
    out.push(
      `address to ${str(a.line1)}${str(a.unit) ? `, ${str(a.unit)}` : ''}, ${str(a.city)} ${str(a.postal_code)}`,
    );
  }
  if (isRecord(changes.preferences)) {
    const p = changes.preferences;
    if (str(p.contact)) {
      const contactNames: Record<string, string> = { sms: 'text messages', email: 'email', phone: 'phone calls' };
      out.push(`contact preference to ${contactNames[str(p.contact)] ?? str(p.contact)}`);
    }
    if (str(p.preferred_time))
      out.push(`preferred visit time to ${str(p.preferred_time) === 'any' ? 'any time' : str(p.preferred_time)}`);
    if (typeof p.eco_products === 'boolean')
      out.push(`product preference to ${p.eco_products ? 'eco-friendly products' : 'our standard products'}`);
    if (str(p.pets)) out.push(`pets on file to "${str(p.pets)}"`);
  }
  if (typeof changes.notes === 'string') out.push('account notes');
  return out;
}

/**
 * What a tool call would do, in plain words for the customer, lower-case so it reads inside a
 * sentence ("I've sent your request to book Deep Cleaning on Tue, Dec 8, 10:00 AM EST"). The one
 * description of a call: the graph's replies and the offline planner both use it.
 */
export function describeCall(call: { name: string; args: Record<string, unknown> }, ctx: DescribeContext): string {
  const a = isRecord(call.args) ? call.args : {};
  switch (call.name) {
    case 'book_slot': {
      const start = when(a.start_time, ctx.timeZone);
      return `book ${serviceName(str(a.service_id), ctx) || 'a visit'}${start ? ` on ${start}` : ''}`;
    }
    case 'reschedule_booking':
      return `move ${describeBooking(a.booking_id, ctx)} to ${when(a.new_start_time, ctx.timeZone) || 'a new time'}`;
    case 'cancel_booking':
      return `cancel ${describeBooking(a.booking_id, ctx)}`;
    case 'update_customer':
      return `update your ${joinList(describeChanges(isRecord(a.changes) ? a.changes : {}))}`;
    case 'create_ticket': {
      const priority = str(a.priority) === 'urgent' ? 'urgent ' : str(a.priority) === 'high' ? 'high-priority ' : '';
      return `open a ${priority}support ticket: "${str(a.subject)}"`.replace('a urgent', 'an urgent');
    }
    case 'send_email':
      return `email you "${str(a.subject)}"`;
    case 'lookup_customer':
      return 'look up your account';
    case 'search_knowledge_base':
      return `search our help centre for "${str(a.query)}"`;
    case 'withdraw_request':
      return 'withdraw your pending request';
    default:
      return `run ${call.name}`;
  }
}
