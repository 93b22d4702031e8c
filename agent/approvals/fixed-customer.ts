import type { Approval, ArgumentIssue } from './ledger.js';

export const CUSTOMER_FIXED =
  "The customer of a request can't be changed: it belongs to the conversation it came from. " +
  'Reject it instead if it is for someone else.';

/**
 * An edit that names another customer than the approval's. A manager edits *what* is done, never
 * *for whom*: the customer comes from the verified conversation, and the write runs in their scope.
 */
export function customerChangeIssue(
  approval: Pick<Approval, 'customer_id' | 'args'>,
  edited: unknown,
): ArgumentIssue | undefined {
  if (!edited || typeof edited !== 'object' || !('customer_id' in edited)) return undefined;
  const expected = approval.customer_id ?? approval.args.customer_id;
  return (edited as { customer_id: unknown }).customer_id === expected
    ? undefined
    : { path: 'customer_id', message: CUSTOMER_FIXED };
}
