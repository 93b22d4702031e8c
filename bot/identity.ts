import type { Clock } from '../core/clock.js';
import { withTransaction, type Pool } from '../core/pg-pool.js';
import { audit } from '../schema/approvals/store.js';

/**
 * Who a Slack user is, from the stored link a manager made (or the demo seed): never from what
 * the user types. No link → null: the agent then answers from the knowledge base only.
 */
export async function customerForSlackUser(pool: Pool, slackUserId: string): Promise<string | null> {
  const r = await pool.query<{ customer_id: string }>(
    `SELECT customer_id FROM slack_identities WHERE slack_user_id = $1`,
    [slackUserId],
  );
  return r.rows[0]?.customer_id ?? null;
}

export interface LinkConflicts {
  /** The person is linked to another customer now: linking moves their link. */
  userLinkedTo?: { id: string; name: string };
  /** Other Slack users linked to this customer: they stay linked (a customer may have several). */
  customerLinkedTo: string[];
}

export type LinkResult =
  | { status: 'linked'; previousCustomerId: string | null; customer: { id: string; name: string } }
  /** Already linked to exactly this customer: nothing to do. */
  | { status: 'unchanged'; customer: { id: string; name: string } }
  | { status: 'no_customer' }
  /** Linking would move or add to an existing link, and the manager has not confirmed that. */
  | { status: 'needs_confirmation'; customer: { id: string; name: string }; conflicts: LinkConflicts };

/**
 * Link (or re-link) a Slack user to a customer, recording which manager did it, with an audit
 * entry in the same transaction. An existing link of the person, or of the customer to someone
 * else, is never changed silently: without `confirmed` the call reports it and writes nothing.
 * The check and the write are one transaction holding the person and the customer, so a link
 * made meanwhile by another manager is seen, not overwritten.
 */
export async function linkSlackUser(
  pool: Pool,
  clock: Clock,
  link: { slackUserId: string; customerId: string; linkedBy: string; confirmed?: boolean },
): Promise<LinkResult> {
  return withTransaction(pool, async (tx) => {
    // The person first, then the customer: every link takes them in this order (no deadlock).
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('slack_identity:' || $1))`, [link.slackUserId]);
    const customer = (
      await tx.query<{ id: string; name: string }>(`SELECT id, name FROM customers WHERE id = $1 FOR UPDATE`, [
        link.customerId,
      ])
    ).rows[0];
    if (!customer) return { status: 'no_customer' };
    const previous = (
      await tx.query<{ customer_id: string; name: string }>(
        `SELECT si.customer_id, c.name FROM slack_identities si JOIN customers c ON c.id = si.customer_id
         WHERE si.slack_user_id = $1`,
        [link.slackUserId],
      )
    ).rows[0];
    if (previous?.customer_id === customer.id) return { status: 'unchanged', customer };
    const others = (
      await tx.query<{ slack_user_id: string }>(
        `SELECT slack_user_id FROM slack_identities WHERE customer_id = $1 AND slack_user_id <> $2
         ORDER BY linked_at, slack_user_id`,
        [customer.id, link.slackUserId],
      )
    ).rows.map((r) => r.slack_user_id);
    if (!link.confirmed && (previous || others.length)) {
      return {
        status: 'needs_confirmation',
        customer,
        conflicts: {
          ...(previous ? { userLinkedTo: { id: previous.customer_id, name: previous.name } } : {}),
          customerLinkedTo: others,
        },
      };
    }
    const now = clock.now();
    await tx.query(
      `INSERT INTO slack_identities (slack_user_id, customer_id, linked_by, linked_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (slack_user_id) DO UPDATE
       SET customer_id = EXCLUDED.customer_id, linked_by = EXCLUDED.linked_by, linked_at = EXCLUDED.linked_at`,
      [link.slackUserId, customer.id, link.linkedBy, now],
    );
    await audit(tx, {
      at: now,
      actor: link.linkedBy,
      action: 'slack_identity_linked',
      customerId: customer.id,
      details: {
        slack_user_id: link.slackUserId,
        previous_customer_id: previous?.customer_id ?? null,
        ...(others.length ? { also_linked: others } : {}),
      },
    });
    return { status: 'linked', previousCustomerId: previous?.customer_id ?? null, customer };
  });
}
