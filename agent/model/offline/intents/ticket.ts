import type { PlanContext } from '../../../plan-context.js';
import type { Analysis } from '../analysis/analyze.js';
import { ticketSubject, triage } from '../analysis/entities.js';
import { clip, normalize } from '../analysis/text.js';
import type { PlannedCall } from './turn.js';

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
