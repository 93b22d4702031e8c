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

export interface LinkResult {
  previousCustomerId: string | null;
  customer: { id: string; name: string };
}

/**
 * Link (or re-link) a Slack user to a customer, recording which manager did it, with an audit
 * entry in the same transaction. Returns undefined when the customer does not exist.
 */
export async function linkSlackUser(
  pool: Pool,
  clock: Clock,
  link: { slackUserId: string; customerId: string; linkedBy: string },
): Promise<LinkResult | undefined> {
  return withTransaction(pool, async (tx) => {
    const customer = (
      await tx.query<{ id: string; name: string }>(`SELECT id, name FROM customers WHERE id = $1`, [link.customerId])
    ).rows[0];
    if (!customer) return undefined;
    const previous = (
      await tx.query<{ customer_id: string }>(
        `SELECT customer_id FROM slack_identities WHERE slack_user_id = $1 FOR UPDATE`,
        [link.slackUserId],
      )
    ).rows[0];
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
      details: { slack_user_id: link.slackUserId, previous_customer_id: previous?.customer_id ?? null },
    });
    return { previousCustomerId: previous?.customer_id ?? null, customer };
  });
}
