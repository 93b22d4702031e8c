import type { Queryable } from '../../core/pg-pool.js';
import { BOOKING_COLUMNS, BOOKING_FROM, type BookingRow } from '../../schema/bookings/row.js';
import type { LookupCustomerArgs, LookupCustomerResult } from '../../schema/tools/lookup-customer.js';
import type { ToolContext } from '../tool-handler.js';
import { ToolError } from '../../schema/tools/errors.js';
import { CUSTOMER_COLUMNS, type CustomerRow } from '../../schema/customers/row.js';
import { PHONE_DIGITS_SQL, phoneDigits } from '../../schema/customers/phone.js';
import { isoInZone, maskEmail, toCustomerRecord } from './shared.js';

const MAX_CANDIDATES = 10;

/**
 * Every criterion given must match (AND). A name matches as a case-insensitive substring first;
 * only when no name contains it, by trigram similarity (typos), keeping the candidates close to
 * the best one.
 */
async function findCustomers(db: Queryable, args: LookupCustomerArgs): Promise<CustomerRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (args.customer_id) where.push(`id = ${param(args.customer_id)}`);
  if (args.email) where.push(`lower(email) = lower(${param(args.email.trim())})`);
  if (args.phone) {
    const digits = phoneDigits(args.phone);
    if (digits.length < 7) return [];
    where.push(`${PHONE_DIGITS_SQL('phone')} = ${param(digits)}`);
  }
  const base = where.length ? where.join(' AND ') : 'true';

  if (!args.name) {
    const res = await db.query<CustomerRow>(
      `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE ${base} ORDER BY id LIMIT ${MAX_CANDIDATES + 1}`,
      params,
    );
    return res.rows;
  }

  const name = args.name.trim().toLowerCase().replace(/\s+/g, ' ');
  const nameParam = param(name);
  const contains = await db.query<CustomerRow>(
    `SELECT ${CUSTOMER_COLUMNS} FROM customers
     WHERE ${base} AND strpos(lower(name), ${nameParam}) > 0
     ORDER BY id LIMIT ${MAX_CANDIDATES + 1}`,
    params,
  );
  if (contains.rows.length > 0) return contains.rows;

  const fuzzy = await db.query<CustomerRow & { score: number }>(
    `WITH scored AS (
       SELECT ${CUSTOMER_COLUMNS},
         greatest(similarity(lower(name), ${nameParam}), word_similarity(${nameParam}, lower(name)))::float8 AS score
       FROM customers WHERE ${base}
     )
     SELECT * FROM scored WHERE score >= 0.4
     ORDER BY score DESC, id LIMIT ${MAX_CANDIDATES + 1}`,
    params,
  );
  const best = fuzzy.rows[0]?.score ?? 0;
  // "Ann Lopes" → Ann Lopez, not every Ann: keep only those nearly as close as the best.
  return fuzzy.rows.filter((r) => r.score >= best - 0.1);
}

async function details(db: Queryable, customerId: string, now: Date, timeZone: string) {
  const [bookings, tickets] = await Promise.all([
    db.query<BookingRow>(
      `SELECT ${BOOKING_COLUMNS} FROM ${BOOKING_FROM}
       WHERE b.customer_id = $1 AND b.starts_at > $2 AND b.status = 'confirmed'
       ORDER BY b.starts_at, b.id LIMIT 20`,
      [customerId, now],
    ),
    db.query<{ id: string; subject: string; status: string; priority: string }>(
      `SELECT id, subject, status, priority FROM tickets
       WHERE customer_id = $1 AND status IN ('open', 'pending')
       ORDER BY created_at DESC, id DESC LIMIT 20`,
      [customerId],
    ),
  ]);
  return {
    upcoming_bookings: bookings.rows.map(({ customer_id: _, ...b }) => ({
      ...b,
      starts_at: isoInZone(b.starts_at, timeZone),
      ends_at: isoInZone(b.ends_at, timeZone),
    })),
    open_tickets: tickets.rows,
  };
}

export async function lookupCustomer(args: LookupCustomerArgs, ctx: ToolContext): Promise<LookupCustomerResult> {
  let matches = await findCustomers(ctx.pool, args);
  if (ctx.scope.kind === 'customer') {
    // In a customer's conversation the only person this can return is that customer. Whether the
    // query named someone else who exists, or nobody at all, the answer is the same refusal, so it
    // can't be used to probe for other customers.
    const self = ctx.scope.customerId;
    matches = matches.filter((m) => m.id === self);
    if (matches.length === 0) {
      throw new ToolError('out_of_scope', 'In this conversation you can only look up the customer you are talking to.');
    }
  }
  const empty = { customer: null, upcoming_bookings: [], open_tickets: [], candidates: [] };
  if (matches.length === 0) return { status: 'not_found', ...empty };
  if (matches.length > 1) {
    return {
      status: 'ambiguous',
      ...empty,
      candidates: matches
        .slice(0, MAX_CANDIDATES)
        .map((m) => ({ id: m.id, name: m.name, email_hint: maskEmail(m.email), city: m.city })),
    };
  }
  const row = matches[0]!;
  return {
    status: 'found',
    customer: toCustomerRecord(row),
    ...(await details(ctx.pool, row.id, ctx.clock.now(), ctx.timeZone)),
    candidates: [],
  };
}
