/**
 * Directory of the demo Slack workspace: Brightwell managers who approve
 * changes, guests who are not linked to any customer record, and one Slack
 * user per customer that has a slack_user_id.
 */

import { CUSTOMERS } from './customers.js';

export interface SeedSlackUser {
  id: string;
  name: string;
  real_name: string;
  is_bot?: boolean;
  role: 'customer' | 'manager' | 'guest';
}

export const DEMO_MANAGERS: readonly SeedSlackUser[] = [
  { id: 'U01MGR0001', name: 'dana.whitfield', real_name: 'Dana Whitfield', role: 'manager' },
  { id: 'U01MGR0002', name: 'owen.castillo', real_name: 'Owen Castillo', role: 'manager' },
  { id: 'U01MGR0003', name: 'leah.morrison', real_name: 'Leah Morrison', role: 'manager' },
];

/** Workspace members with no customer record (e.g. a prospect, a contractor). */
export const DEMO_GUESTS: readonly SeedSlackUser[] = [
  { id: 'U01GST0001', name: 'casey.nguyen', real_name: 'Casey Nguyen', role: 'guest' },
  { id: 'U01GST0002', name: 'riley.morgan', real_name: 'Riley Morgan', role: 'guest' },
];

/** Slack handle derived from a customer's name: "Maria O'Neill" -> "maria.oneill". */
function handleFor(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '');
}

const CUSTOMER_SLACK_USERS: readonly SeedSlackUser[] = CUSTOMERS.flatMap((customer) =>
  customer.slack_user_id === null
    ? []
    : [
        {
          id: customer.slack_user_id,
          name: handleFor(customer.name),
          real_name: customer.name,
          role: 'customer' as const,
        },
      ],
);

export const DEMO_SLACK_USERS: readonly SeedSlackUser[] = [...DEMO_MANAGERS, ...DEMO_GUESTS, ...CUSTOMER_SLACK_USERS];
