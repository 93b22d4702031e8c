import type { Queryable } from '../../core/pg-pool.js';

/**
 * A fingerprint of every business table: row counts, and a hash of the mutable ones' content
 * (so an UPDATE shows too: a moved or cancelled booking keeps every count). Equal before/after =
 * nothing was written.
 */
export async function businessSnapshot(db: Queryable): Promise<Record<string, string | number>> {
  const res = await db.query<Record<string, string | number>>(`
    SELECT
      (SELECT count(*) FROM customers)::int AS customers,
      (SELECT md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM customers c) AS customers_md5,
      (SELECT count(*) FROM tickets)::int AS tickets,
      (SELECT count(*) FROM bookings)::int AS bookings,
      (SELECT md5(coalesce(string_agg(b::text, '|' ORDER BY id), '')) FROM bookings b) AS bookings_md5,
      (SELECT count(*) FROM booking_slots)::int AS booking_slots,
      (SELECT md5(coalesce(string_agg(bs::text, '|' ORDER BY slot_id), '')) FROM booking_slots bs) AS booking_slots_md5,
      (SELECT count(*) FROM email_outbox)::int AS email_outbox,
      (SELECT count(*) FROM slots)::int AS slots,
      (SELECT count(*) FROM services)::int AS services,
      (SELECT md5(coalesce(string_agg(s::text, '|' ORDER BY id), '')) FROM services s) AS services_md5,
      (SELECT count(*) FROM kb_articles)::int AS kb_articles,
      (SELECT count(*) FROM slack_identities)::int AS slack_identities,
      (SELECT count(*) FROM audit_log)::int AS audit_log,
      (SELECT md5(coalesce(string_agg(a.id::text || a.status, '|' ORDER BY id), '')) FROM approvals a) AS approvals_md5
  `);
  return res.rows[0]!;
}
