import type { PlanContext } from '../../../plan-context.js';
import type { Analysis } from '../analysis/analyze.js';
import { ticketSubject, triage } from '../analysis/entities.js';
import { clip, contentWords, normalize } from '../analysis/text.js';
import type { PlannedCall } from './turn.js';

/** The wish to complain or report said on its own ("i want to make a complaint", "can i open a ticket pls"). */
const ASKS_TO_COMPLAIN = new RegExp(
  String.raw`\b(?:i|we)?\s*(?:(?:would|'d|d) like to|want to|wanna|need to|have to|wish to|am going to|` +
    String.raw`(?:can|could|may) (?:i|we))?\s*` +
    String.raw`(?:make|file|raise|lodge|open|submit|log|put in|register|start)?\s*(?:a|an)?\s*(?:formal|official)?\s*` +
    String.raw`(?:complaint|complain|ticket|report|issue|problem)s?\b|` +
    // "Open a ticket. Now.": how soon, said with the wish, tells nothing about what happened either.
    String.raw`\b(?:please|pls|plz|thanks|thank you|hi|hello|hey|now|right now|asap|immediately|urgently|today)\b`,
  'g',
);

/**
 * A problem, a complaint, an explicit ticket request, or the cancellation of a booked visit (with
 * no pending booking request to withdraw instead): a create_ticket call, and advice when urgent.
 */
export function planTicket(
  a: Analysis,
  customer: NonNullable<PlanContext['customer']>,
  hasPendingBooking: boolean,
): { call?: PlannedCall; note?: string } {
  // A cancellation the booking tools can make (a.bookingChange) is not a ticket.
  if (!(a.problem || (a.cues.cancelBooking && !hasPendingBooking && !a.bookingChange))) return {};
  const t = normalize(a.text);
  // "I want to make a complaint.": what about is the whole of the ticket, so it is asked for first.
  if (a.problem && !a.cues.cancelBooking && contentWords(t.replace(ASKS_TO_COMPLAIN, ' ')).size === 0)
    return {
      note:
        "I'm sorry to hear something went wrong. What happened? Tell me what it's about (and the visit, if it " +
        "was one of ours), and I'll pass it to our team.",
    };
  const tri = a.problem
    ? triage(a.text)
    : { category: 'scheduling' as const, priority: 'normal' as const, label: 'Cancellation request' };
  const call = {
    name: 'create_ticket',
    args: {
      customer_id: customer.id,
      subject: ticketSubject(tri.label, a.text),
      description: clip(a.text, 4000),
      priority: tri.priority,
      category: tri.category,
    },
  };
  if (tri.priority !== 'urgent') return { call };
  return {
    call,
    note: /\b(leak|flood|water|burst|pouring|gushing)/.test(t)
      ? "I've marked it urgent. If water is still leaking, turning off the nearest shut-off valve " +
        '(or the main water supply) will limit the damage until we get there.'
      : "I've marked it urgent. If anyone is in danger, please leave the area and call emergency services first.",
  };
}
