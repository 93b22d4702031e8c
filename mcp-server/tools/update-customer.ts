import { isUniqueViolation } from '../../core/pg-pool.js';
import type { CustomerRecord } from '../../schema/tools/common.js';
import type { UpdateCustomerArgs, UpdateCustomerResult } from '../../schema/tools/update-customer.js';
import { canonicalJson } from '../../schema/tools/canonical.js';
import type { WriteContext } from '../tool-handler.js';
import { ToolError } from '../../schema/tools/errors.js';
import { CUSTOMER_COLUMNS, type CustomerRow } from '../../schema/customers/row.js';
import { requireCustomer, toCustomerRecord } from './shared.js';

const FIELDS = ['name', 'email', 'phone', 'address', 'preferences', 'notes'] as const;

function applyChanges(before: CustomerRecord, changes: UpdateCustomerArgs['changes']): CustomerRecord {
  const prefs = Object.fromEntries(Object.entries(changes.preferences ?? {}).filter(([, v]) => v !== undefined));
  return {
    ...before,
    name: changes.name ?? before.name,
    email: changes.email ?? before.email,
    phone: changes.phone ?? before.phone,
    notes: changes.notes ?? before.notes,
    // An address is replaced as a whole: a new address without a unit has no unit.
    address: changes.address
      ? {
          line1: changes.address.line1,
          unit: changes.address.unit ?? null,
          city: changes.address.city,
          postal_code: changes.address.postal_code,
        }
      : before.address,
    // Preferences merge: only the keys given change, the others stay.
    preferences: { ...before.preferences, ...prefs },
  };
}

export async function updateCustomer(args: UpdateCustomerArgs, ctx: WriteContext): Promise<UpdateCustomerResult> {
  const row = await requireCustomer(ctx, ctx.tx, args.customer_id, { forUpdate: true });
  const before = toCustomerRecord(row);
  const after = applyChanges(before, args.changes);
  const changed = FIELDS.filter((f) => canonicalJson(before[f]) !== canonicalJson(after[f]));
  if (changed.length === 0) {
    return { customer_id: before.id, changed_fields: [], before, after: before };
  }

  if (changed.includes('email') && after.email) {
    const taken = await ctx.tx.query(`SELECT 1 FROM customers WHERE lower(email) = lower($1) AND id <> $2`, [
      after.email,
      before.id,
    ]);
    if (taken.rowCount) throw emailConflict(after.email);
  }

  let updated: CustomerRow;
  try {
    const res = await ctx.tx.query<CustomerRow>(
      `UPDATE customers SET name = $2, email = $3, phone = $4, address_line1 = $5, address_unit = $6, city = $7,
         postal_code = $8, preferences = $9, notes = $10, updated_at = $11
       WHERE id = $1
       RETURNING ${CUSTOMER_COLUMNS}`,
      [
        before.id,
        after.name,
        after.email,
        after.phone,
        after.address?.line1 ?? null,
        after.address?.unit ?? null,
        after.address?.city ?? null,
        after.address?.postal_code ?? null,
        JSON.stringify(after.preferences),
        after.notes,
        ctx.clock.now(),
      ],
    );
    updated = res.rows[0]!;
  } catch (err) {
    // Two updates racing to the same address: the unique index decides, the loser gets a clear
    // answer. No savepoint of its own: a refusal ends the handler, and its caller rolls back (the
    // gate to the savepoint it keeps for refusals, a rehearsal all of it).
    if (isUniqueViolation(err) && after.email) throw emailConflict(after.email);
    throw err;
  }
  return { customer_id: before.id, changed_fields: [...changed], before, after: toCustomerRecord(updated) };
}

const emailConflict = (email: string) =>
  new ToolError(
    'conflict',
    `The email address ${email} already belongs to another customer record, so it can't be used here. ` +
      'Ask the customer for a different address, or have staff merge the records.',
    {
      field: 'email',
    },
  );
