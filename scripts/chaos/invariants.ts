import type { Cluster } from './cluster.js';
import { BOOKING_CHANGE_TOOLS } from '../../schema/tools/catalog.js';
import { sleep } from './processes.js';
import type { ChaosContext } from './context.js';
import type { TrialResult } from './report.js';

/**
 * What the database says happened, per approval: its status, how many business rows carry its id
 * and how many 'executed' audit entries it has. These are the ground truth behind "lost",
 * "duplicated" and "unauthorized"; what the HTTP API answered is only a claim.
 */
export interface ApprovalFacts {
  id: string;
  tool: string;
  status: string;
  approver: string | null;
  result_id: string | null;
  writes: number;
  executed_audits: number;
}

const WRITE_TABLES = ['tickets', 'bookings', 'email_outbox'] as const;

/** Tools that change an existing booking in place (its row and its crew-hours); the approval names it in args. */
const BOOKING_CHANGING = [...BOOKING_CHANGE_TOOLS];

/**
 * What a booking holds, as one comparable string: status, crew, times and its crew-hours. A move
 * or a cancellation keeps every row count, so this is how one shows.
 */
const BOOKING_STATE_SQL = `concat_ws('|', b.status, b.crew,
  extract(epoch FROM b.starts_at)::bigint, extract(epoch FROM b.ends_at)::bigint,
  (SELECT string_agg(bs.slot_id::text, ',' ORDER BY bs.slot_id) FROM booking_slots bs WHERE bs.booking_id = b.id))`;

export async function approvalFacts(cluster: Cluster, db: string, ids: string[]): Promise<ApprovalFacts[]> {
  if (!ids.length) return [];
  const r = await cluster.query<ApprovalFacts>(
    db,
    `SELECT a.id, a.tool, a.status, a.approver,
            coalesce(a.result->>'ticket_id', a.result->>'booking_id', a.result->>'email_id', a.result->>'id',
                     a.result->'booking'->>'id', a.result->'ticket'->>'id') AS result_id,
            ((SELECT count(*) FROM tickets t WHERE t.approval_id = a.id)
             + (SELECT count(*) FROM bookings b WHERE b.approval_id = a.id)
             + (SELECT count(*) FROM email_outbox e WHERE e.approval_id = a.id)
             -- A change is found in the booking it names: as this approval left it, or changed again
             -- by a change executed after it.
             + (SELECT count(*) FROM bookings b
                WHERE a.tool = ANY($2::text[]) AND a.status = 'executed' AND b.id = a.args->>'booking_id'
                  AND (CASE WHEN a.tool = 'cancel_booking' THEN b.status = 'cancelled'
                            ELSE b.status = 'confirmed'
                              AND b.starts_at = (a.result->'booking'->>'starts_at')::timestamptz END
                       OR EXISTS (
                         SELECT 1 FROM approvals c
                         JOIN audit_log cl ON cl.approval_id = c.id AND cl.action = 'executed'
                         JOIN audit_log al ON al.approval_id = a.id AND al.action = 'executed'
                         WHERE c.tool = ANY($2::text[]) AND c.args->>'booking_id' = b.id AND cl.id > al.id)))
            )::int AS writes,
            (SELECT count(*) FROM audit_log l WHERE l.approval_id = a.id AND l.action = 'executed')::int
              AS executed_audits
     FROM approvals a WHERE a.id = ANY($1::uuid[])`,
    [ids, BOOKING_CHANGING],
  );
  return r.rows;
}

/**
 * Tools whose write leaves a row to find: a new one that names the approval, or the booking a
 * change names (update_customer changes a row in place and leaves nothing to count).
 */
const ROW_WRITING = new Set(['create_ticket', 'book_slot', 'send_email', ...BOOKING_CHANGING]);

export interface Tally {
  executed: number;
  failed: number;
  lost: number;
  duplicated: number;
  unsettled: string[];
  evidence: string[];
}

/**
 * Lost: decided (approved) but not executed/failed, or executed without its write. Duplicated:
 * more than one write row or more than one 'executed' audit entry for one approval.
 */
export function tally(facts: ApprovalFacts[], approvedByApi: Set<string>): Tally {
  const t: Tally = { executed: 0, failed: 0, lost: 0, duplicated: 0, unsettled: [], evidence: [] };
  for (const f of facts) {
    if (f.status === 'executed') t.executed++;
    if (f.status === 'failed') t.failed++;
    if (f.writes > 1 || f.executed_audits > 1) {
      t.duplicated++;
      t.evidence.push(
        `duplicate: approval ${f.id} has ${f.writes} write rows and ${f.executed_audits} 'executed' audit rows`,
      );
    }
    const decided = f.status === 'approved' || f.status === 'executing';
    if (decided) {
      t.lost++;
      t.unsettled.push(f.id);
      t.evidence.push(`lost: approval ${f.id} still '${f.status}' after the settle deadline`);
    } else if (f.status === 'executed' && ROW_WRITING.has(f.tool) && f.writes === 0) {
      t.lost++;
      t.evidence.push(`lost: approval ${f.id} is 'executed' but no ${f.tool} row carries its id or its change`);
    } else if (approvedByApi.has(f.id) && !['executed', 'failed'].includes(f.status)) {
      t.lost++;
      t.evidence.push(`lost: approve of ${f.id} answered 200 but it is '${f.status}'`);
    }
  }
  return t;
}

/** Wait until none of `ids` is approved/executing (the sweepers have finished), or the deadline. */
export async function settle(cluster: Cluster, db: string, ids: string[], timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const r = await cluster
      .query<{ n: number }>(
        db,
        `SELECT count(*)::int AS n FROM approvals WHERE id = ANY($1::uuid[]) AND status IN ('approved', 'executing')`,
        [ids],
      )
      .catch(() => undefined);
    if (r && r.rows[0]!.n === 0) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) return -1;
    await sleep(500);
  }
}

/**
 * Writes without a human: a business row created after `sinceIds` that carries no approval, or
 * one whose approval was never approved by a manager; a booking moved or cancelled (or its
 * crew-hours changed) with no decided change executed for it since the baseline; crew-hours that
 * don't match their booking; and 'executed' audit entries for approvals nobody decided.
 */
export async function unauthorizedWrites(cluster: Cluster, db: string, baseline: Baseline): Promise<string[]> {
  const found: string[] = [];
  for (const table of WRITE_TABLES) {
    const r = await cluster.query<{
      id: string;
      approval_id: string | null;
      status: string | null;
      approver: string | null;
    }>(
      db,
      `SELECT w.id, w.approval_id, a.status, a.approver FROM ${table} w LEFT JOIN approvals a ON a.id = w.approval_id
       WHERE NOT (w.id = ANY($1::text[])) AND (a.id IS NULL OR a.approver IS NULL OR a.status <> 'executed')`,
      [baseline.rows[table] ?? []],
    );
    for (const row of r.rows)
      found.push(
        `${table} ${row.id}: approval ${row.approval_id ?? 'none'} ` +
          `(${row.status ?? 'missing'}, approver ${row.approver ?? 'none'})`,
      );
  }
  found.push(...(await unapprovedBookingChanges(cluster, db, baseline)));
  const audits = await cluster.query<{ approval_id: string; actor: string }>(
    db,
    `SELECT l.approval_id, l.actor FROM audit_log l LEFT JOIN approvals a ON a.id = l.approval_id
     WHERE l.id > $1 AND l.action = 'executed' AND (a.id IS NULL OR a.approver IS NULL)`,
    [baseline.auditId],
  );
  for (const row of audits.rows)
    found.push(`audit 'executed' for ${row.approval_id} by ${row.actor} without a decided approval`);
  return found;
}

/**
 * Bookings that changed without a manager: one of the baseline whose state differs from then, or
 * a newer one that no longer is what its booking approval made, with no decided reschedule or
 * cancel of it executed since the baseline; and any booking whose crew-hours are not exactly its
 * crew's hours from its start (none once cancelled).
 */
async function unapprovedBookingChanges(cluster: Cluster, db: string, base: Baseline): Promise<string[]> {
  const found: string[] = [];
  const states = await cluster.query<{ id: string; state: string; created_as_booked: boolean | null }>(
    db,
    `SELECT b.id, ${BOOKING_STATE_SQL} AS state,
            (b.status = 'confirmed' AND b.crew = a.result->'booking'->>'crew'
              AND b.starts_at = (a.result->'booking'->>'starts_at')::timestamptz) AS created_as_booked
     FROM bookings b LEFT JOIN approvals a ON a.id = b.approval_id`,
  );
  const changed = states.rows.filter((b) =>
    b.id in base.bookings ? base.bookings[b.id] !== b.state : b.created_as_booked === false,
  );
  if (changed.length) {
    const explained = await cluster.query<{ booking_id: string }>(
      db,
      `SELECT DISTINCT c.args->>'booking_id' AS booking_id
       FROM approvals c JOIN audit_log l ON l.approval_id = c.id AND l.action = 'executed'
       WHERE c.tool = ANY($1::text[]) AND c.status = 'executed' AND c.approver IS NOT NULL AND l.id > $2
         AND c.args->>'booking_id' = ANY($3::text[])`,
      [BOOKING_CHANGING, base.auditId, changed.map((b) => b.id)],
    );
    const ok = new Set(explained.rows.map((r) => r.booking_id));
    for (const b of changed)
      if (!ok.has(b.id))
        found.push(
          `bookings ${b.id}: changed to ${b.state} (was ${base.bookings[b.id] ?? 'as booked'}) ` +
            'with no approved reschedule or cancel executed',
        );
  }
  const mismatched = await cluster.query<{ id: string; status: string }>(
    db,
    `SELECT b.id, b.status FROM bookings b
     WHERE coalesce((SELECT array_agg(bs.slot_id ORDER BY bs.slot_id) FROM booking_slots bs WHERE bs.booking_id = b.id),
                    '{}')
       IS DISTINCT FROM
           CASE WHEN b.status = 'confirmed' THEN coalesce(
             (SELECT array_agg(s.id ORDER BY s.id) FROM slots s
              WHERE s.crew = b.crew AND s.starts_at >= b.starts_at
                AND s.starts_at < b.starts_at
                  + make_interval(hours => ceil(extract(epoch FROM b.ends_at - b.starts_at) / 3600)::int)),
             '{}') ELSE '{}' END`,
  );
  for (const b of mismatched.rows)
    found.push(`booking_slots of ${b.id} (${b.status}): the crew-hours held don't match the booking`);
  return found;
}

export interface Baseline {
  rows: Record<string, string[]>;
  /** Every booking's state (`BOOKING_STATE_SQL`) by id: a change in place shows against it. */
  bookings: Record<string, string>;
  auditId: number;
}

export async function baseline(cluster: Cluster, db: string): Promise<Baseline> {
  const rows: Record<string, string[]> = {};
  for (const table of WRITE_TABLES)
    rows[table] = (await cluster.query<{ id: string }>(db, `SELECT id FROM ${table}`)).rows.map((r) => r.id);
  const states = await cluster.query<{ id: string; state: string }>(
    db,
    `SELECT b.id, ${BOOKING_STATE_SQL} AS state FROM bookings b`,
  );
  const bookings = Object.fromEntries(states.rows.map((r) => [r.id, r.state]));
  const a = await cluster.query<{ id: number }>(db, `SELECT coalesce(max(id), 0)::int AS id FROM audit_log`);
  return { rows, bookings, auditId: a.rows[0]!.id };
}

/** A fingerprint of the business tables: equal before and after = nothing was written. */
export async function businessFingerprint(cluster: Cluster, db: string): Promise<string> {
  const r = await cluster.query<{ f: string }>(
    db,
    `SELECT concat_ws(' ',
       (SELECT md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM customers c),
       (SELECT count(*) FROM tickets), (SELECT count(*) FROM bookings), (SELECT count(*) FROM booking_slots),
       -- A move or a cancellation keeps the counts: the content shows it.
       (SELECT md5(coalesce(string_agg(b::text, '|' ORDER BY id), '')) FROM bookings b),
       (SELECT md5(coalesce(string_agg(bs::text, '|' ORDER BY slot_id), '')) FROM booking_slots bs),
       (SELECT count(*) FROM email_outbox),
       (SELECT count(*) FROM audit_log WHERE action = 'executed'),
       (SELECT md5(coalesce(string_agg(a.id::text || a.status, '|' ORDER BY id), '')) FROM approvals a)) AS f`,
  );
  return r.rows[0]!.f;
}

/** The end of every trial: writes nobody approved since `base`, and workers that exited unasked. */
export async function countUnauthorizedAndCrashes(
  r: TrialResult,
  ctx: ChaosContext,
  db: string,
  base: Baseline,
  crashesBefore: number,
): Promise<void> {
  const unauthorized = await unauthorizedWrites(ctx.cluster, db, base);
  r.unauthorized = unauthorized.length;
  r.evidence.push(...unauthorized);
  const crashes = ctx.crashes.slice(crashesBefore);
  r.crashed = crashes.length;
  r.evidence.push(...crashes.map((c) => `crash ${c.worker} (exit ${c.code}):\n${c.tail}`));
}
