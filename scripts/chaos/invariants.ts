import type { Cluster } from './cluster.js';
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

export async function approvalFacts(cluster: Cluster, db: string, ids: string[]): Promise<ApprovalFacts[]> {
  if (!ids.length) return [];
  const r = await cluster.query<ApprovalFacts>(
    db,
    `SELECT a.id, a.tool, a.status, a.approver,
            coalesce(a.result->>'ticket_id', a.result->>'booking_id', a.result->>'email_id', a.result->>'id')
              AS result_id,
            ((SELECT count(*) FROM tickets t WHERE t.approval_id = a.id)
             + (SELECT count(*) FROM bookings b WHERE b.approval_id = a.id)
             + (SELECT count(*) FROM email_outbox e WHERE e.approval_id = a.id))::int AS writes,
            (SELECT count(*) FROM audit_log l WHERE l.approval_id = a.id AND l.action = 'executed')::int
              AS executed_audits
     FROM approvals a WHERE a.id = ANY($1::uuid[])`,
    [ids],
  );
  return r.rows;
}

/** Tools whose write leaves a row that names the approval (update_customer changes a row in place). */
const ROW_WRITING = new Set(['create_ticket', 'book_slot', 'send_email']);

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
      t.evidence.push(`lost: approval ${f.id} is 'executed' but no ${f.tool} row carries its id`);
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
 * one whose approval was never approved by a manager; and 'executed' audit entries for approvals
 * nobody decided.
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

export interface Baseline {
  rows: Record<string, string[]>;
  auditId: number;
}

export async function baseline(cluster: Cluster, db: string): Promise<Baseline> {
  const rows: Record<string, string[]> = {};
  for (const table of WRITE_TABLES)
    rows[table] = (await cluster.query<{ id: string }>(db, `SELECT id FROM ${table}`)).rows.map((r) => r.id);
  const a = await cluster.query<{ id: number }>(db, `SELECT coalesce(max(id), 0)::int AS id FROM audit_log`);
  return { rows, auditId: a.rows[0]!.id };
}

/** A fingerprint of the business tables: equal before and after = nothing was written. */
export async function businessFingerprint(cluster: Cluster, db: string): Promise<string> {
  const r = await cluster.query<{ f: string }>(
    db,
    `SELECT concat_ws(' ',
       (SELECT md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM customers c),
       (SELECT count(*) FROM tickets), (SELECT count(*) FROM bookings), (SELECT count(*) FROM booking_slots),
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
