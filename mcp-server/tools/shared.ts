import type { Queryable } from '../../core/pg-pool.js';
import type { CustomerRecord } from '../../schema/tools/common.js';
import { CUSTOMER_COLUMNS, type CustomerRow } from '../../schema/customers/row.js';
import type { ToolContext } from '../tool-handler.js';
import { ToolError } from '../../schema/tools/errors.js';

export { isoInZone } from '../../core/time.js';

export function toCustomerRecord(row: CustomerRow): CustomerRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address:
      row.address_line1 !== null
        ? { line1: row.address_line1, unit: row.address_unit, city: row.city ?? '', postal_code: row.postal_code ?? '' }
        : null,
    preferences: row.preferences ?? {},
    notes: row.notes,
  };
}

export async function loadCustomer(
  db: Queryable,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomerRow | undefined> {
  const res = await db.query<CustomerRow>(
    `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return res.rows[0];
}

/**
 * In a customer's conversation every tool acts on that customer only. Checked before anything is
 * looked up, so the answer is the same whether the other customer exists or not.
 */
export function assertInScope(ctx: ToolContext, customerId: string): void {
  if (ctx.scope.kind === 'customer' && ctx.scope.customerId !== customerId) {
    throw new ToolError('out_of_scope', 'In this conversation you can only act on the customer you are talking to.', {
      customer_id: customerId,
    });
  }
}

/** Load a customer the caller may act on, or refuse with `not_found`. */
export async function requireCustomer(
  ctx: ToolContext,
  db: Queryable,
  customerId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CustomerRow> {
  assertInScope(ctx, customerId);
  const row = await loadCustomer(db, customerId, opts);
  if (!row)
    throw new ToolError('not_found', `There is no customer ${customerId}. Use lookup_customer to find the right id.`, {
      customer_id: customerId,
    });
  return row;
}

/** "ann.lopez@example.com" → "a***z@example.com": enough to tell two people apart, not to write to. */
export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const masked = local.length <= 2 ? `${local[0]}***` : `${local[0]}***${local[local.length - 1]}`;
  return `${masked}${email.slice(at)}`;
}
