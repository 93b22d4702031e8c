import type { PlanContext } from '../../../plan-context.js';
import type { Analysis } from '../analysis/analyze.js';
import type { PlannedCall } from './turn.js';

/**
 * An account question ("what bookings do I have?") asked on its own: a lookup_customer of the
 * customer's own record; the answer is written from its result (replies/templates lookupText).
 */
export function planLookup(a: Analysis, customer: NonNullable<PlanContext['customer']>): PlannedCall | undefined {
  return a.cues.lookup ? { name: 'lookup_customer', args: { customer_id: customer.id } } : undefined;
}
