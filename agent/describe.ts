import { formatInZone } from '../core/time.js';
import type { PlanContext } from './plan-context.js';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
export function describeCall(
  call: { name: string; args: Record<string, unknown> },
  ctx: { timeZone: string; services: readonly Pick<PlanContext['services'][number], 'id' | 'name'>[] },
): string {
  const a = call.args;
  switch (call.name) {
    case 'book_slot': {
      const id = str(a.service_id);
      const service = ctx.services.find((s) => s.id === id)?.name ?? id.replace(/^svc_/, '').replace(/_/g, ' ');
      return `book ${service} on ${formatInZone(new Date(str(a.start_time)), ctx.timeZone)}`;
    }
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
