import type { Queryable } from '../../core/pg-pool.js';
import type { ApprovalStatus } from '../approval-status.js';
import { replacesRequest } from '../tools/catalog.js';

/**
 * The one owner of the `approvals` table and of `audit_log`: every statement that reads or
 * changes an approval, and every audit row, is in this file. Callers bring the connection (the
 * pool, or their own transaction client), so the ledger and the tool gate keep their single
 * transactions; validation, ids and the clock stay with the callers.
 *
 * The lifecycle, in the order the transitions appear below:
 *
 *   proposal ──► pending ──► approved ──► executing ──► executed | failed
 *                   │           └──────────────────────► executed | failed   (the gate, once)
 *                   └──► rejected | expired | superseded | withdrawn
 *
 * Every transition is one conditional UPDATE on the current status (or an INSERT guarded by the
 * unique (thread_id, tool_call_id) key), so a race has exactly one winner, and each appends its
 * audit row on the same connection.
 */

export type { ApprovalStatus };

export interface Approval {
  id: string;
  thread_id: string;
  tool_call_id: string;
  tool: string;
  status: ApprovalStatus;
  args_original: Record<string, unknown>;
  args: Record<string, unknown>;
  args_hash: string;
  customer_id: string | null;
  proposed_by: string;
  request_text: string | null;
  approver: string | null;
  decided_at: Date | null;
  decision_reason: string | null;
  expires_at: Date;
  superseded_by: string | null;
  executed_at: Date | null;
  result: unknown;
  error: { code: string; message: string; details?: Record<string, unknown> } | null;
  outcome_delivered_at: Date | null;
  card_channel: string | null;
  card_ts: string | null;
  created_at: Date;
}

type ApprovalRef = Pick<Approval, 'id' | 'thread_id' | 'customer_id'>;

// ------------------------------------------------------------------------------ audit log

export interface AuditEntry {
  at: Date;
  actor: string;
  action: string;
  approval?: ApprovalRef;
  /** For entries about a customer but no approval (a Slack identity linked). */
  customerId?: string;
  details?: unknown;
}

/** Append one row to the audit log (append-only: the table refuses UPDATE and DELETE). */
export async function audit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (at, actor, action, approval_id, thread_id, customer_id, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      e.at,
      e.actor,
      e.action,
      e.approval?.id ?? null,
      e.approval?.thread_id ?? null,
      e.approval?.customer_id ?? e.customerId ?? null,
      JSON.stringify(e.details ?? {}),
    ],
  );
}

export async function auditTrail(
  db: Queryable,
  filter: { approvalId?: string; threadId?: string; customerId?: string; actor?: string },
) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.approvalId) where.push(`approval_id = $${params.push(filter.approvalId)}`);
  if (filter.threadId) where.push(`thread_id = $${params.push(filter.threadId)}`);
  if (filter.customerId) where.push(`customer_id = $${params.push(filter.customerId)}`);
  if (filter.actor) where.push(`actor = $${params.push(filter.actor)}`);
  return (
    await db.query(
      `SELECT id, at, actor, action, approval_id, thread_id, customer_id, details FROM audit_log
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT 1000`,
      params,
    )
  ).rows;
}

// ---------------------------------------------------------------------------------- reads

export async function getApproval(db: Queryable, id: string): Promise<Approval | undefined> {
  return (await db.query<Approval>(`SELECT * FROM approvals WHERE id = $1`, [id])).rows[0];
}

export async function listApprovals(
  db: Queryable,
  filter: { status?: ApprovalStatus; threadId?: string; customerId?: string; limit?: number } = {},
): Promise<Approval[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.status) where.push(`status = $${params.push(filter.status)}`);
  if (filter.threadId) where.push(`thread_id = $${params.push(filter.threadId)}`);
  if (filter.customerId) where.push(`customer_id = $${params.push(filter.customerId)}`);
  const sql = `SELECT * FROM approvals ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
               ORDER BY created_at ${filter.status === 'pending' ? 'ASC' : 'DESC'}
               LIMIT ${Math.min(filter.limit ?? 100, 500)}`;
  return (await db.query<Approval>(sql, params)).rows;
}

/**
 * The thread's approvals as `listApprovals({ threadId })` has them, read by the statement that
 * runs `alongside` too: a CTE of the caller's (its parameters from $2 on, `$1` the thread id),
 * whose returned rows come back as JSON. One round trip for a write and the read that follows it
 * (the read sees the approvals as they were when the statement began).
 *
 * `markOutcomes`: the same statement marks these approvals' outcomes told (`markOutcomeDelivered`),
 * so the reply that tells it and the mark commit together; the rows come back marked.
 */
export async function threadApprovalsWith<T>(
  db: Queryable,
  threadId: string,
  alongside: { sql: string; params: unknown[] },
  markOutcomes?: { ids: string[]; at: Date },
): Promise<{ approvals: Approval[]; rows: T[] }> {
  const at = alongside.params.length + 2;
  // Without outcomes to mark the statement has no `marked` CTE to plan.
  const mark = markOutcomes?.ids.length
    ? `, marked AS (
         UPDATE approvals SET outcome_delivered_at = $${at}
         WHERE id = ANY($${at + 1}::uuid[]) AND outcome_delivered_at IS NULL RETURNING id
       )`
    : '';
  const r = await db.query<Approval & { alongside_rows: T[]; marked_ids?: string[] }>(
    `WITH alongside AS (${alongside.sql})${mark}
     SELECT (SELECT coalesce(json_agg(x), '[]'::json) FROM alongside x) AS alongside_rows,
       ${mark ? `(SELECT coalesce(json_agg(m.id), '[]'::json) FROM marked m) AS marked_ids,` : ''} a.*
     FROM (SELECT 1) AS one
     LEFT JOIN LATERAL (SELECT * FROM approvals WHERE thread_id = $1 ORDER BY created_at DESC LIMIT 100) a ON true`,
    [threadId, ...alongside.params, ...(mark ? [markOutcomes!.at, markOutcomes!.ids] : [])],
  );
  // The read is the statement's snapshot, from before its own mark.
  const marked = new Set(r.rows[0]?.marked_ids ?? []);
  return {
    approvals: r.rows
      .filter((x) => x.id !== null)
      .map(({ alongside_rows: _, marked_ids: __, ...a }) =>
        marked.has(a.id) ? { ...a, outcome_delivered_at: markOutcomes!.at } : a,
      ) as Approval[],
    rows: r.rows[0]?.alongside_rows ?? [],
  };
}

/** Id and status of every approval of a thread: a before/after snapshot of a run. */
export async function threadStatuses(db: Queryable, threadId: string): Promise<{ id: string; status: string }[]> {
  return (
    await db.query<{ id: string; status: string }>(`SELECT id, status FROM approvals WHERE thread_id = $1`, [threadId])
  ).rows;
}

/**
 * The same as one SQL expression (a JSON array of {id, status}) over the thread id parameter
 * `threadParam`: for a statement that reads it beside other work, e.g. taking the thread's lease.
 */
export const threadStatusesSql = (threadParam: string) =>
  `(SELECT coalesce(json_agg(json_build_object('id', id, 'status', status)), '[]'::json)
    FROM approvals WHERE thread_id = ${threadParam})`;

/** Decided approvals whose outcome never reached the conversation (a worker died): for the sweeper. */
export async function undeliveredOutcomes(db: Queryable, decidedBefore: Date): Promise<Approval[]> {
  return (
    await db.query<Approval>(
      `SELECT * FROM approvals
       WHERE outcome_delivered_at IS NULL AND decided_at IS NOT NULL AND decided_at <= $1
         AND status IN ('approved', 'executing', 'executed', 'failed', 'rejected', 'expired')
       ORDER BY decided_at LIMIT 50`,
      [decidedBefore],
    )
  ).rows;
}

/** Pending approvals whose card never went out, proposed before `createdBefore`. */
export async function pendingWithoutCard(db: Queryable, createdBefore: Date): Promise<{ id: string }[]> {
  return (
    await db.query<{ id: string }>(
      `SELECT id FROM approvals WHERE status = 'pending' AND card_ts IS NULL AND created_at <= $1
       ORDER BY created_at LIMIT 20`,
      [createdBefore],
    )
  ).rows;
}

export type QueueRow = Pick<
  Approval,
  'id' | 'tool' | 'status' | 'customer_id' | 'created_at' | 'expires_at' | 'approver' | 'decided_at' | 'decision_reason'
> & { customer_name: string | null };

const QUEUE_SELECT = `SELECT a.id, a.tool, a.status, a.customer_id, a.created_at, a.expires_at, a.approver,
                       a.decided_at, a.decision_reason, c.name AS customer_name
                FROM approvals a LEFT JOIN customers c ON c.id = a.customer_id`;

/** The managers' queue: what waits (oldest first, at most `limit`), how many in all, and the latest decisions. */
export async function managerQueue(
  db: Queryable,
  limit: number,
): Promise<{ pending: QueueRow[]; pendingTotal: number; decided: QueueRow[] }> {
  const [pending, total, decided] = await Promise.all([
    db.query<QueueRow>(`${QUEUE_SELECT} WHERE a.status = 'pending' ORDER BY a.created_at ASC, a.id LIMIT ${limit}`),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM approvals WHERE status = 'pending'`),
    db.query<QueueRow>(
      `${QUEUE_SELECT} WHERE a.approver IS NOT NULL AND a.decided_at IS NOT NULL
       ORDER BY a.decided_at DESC, a.id LIMIT 10`,
    ),
  ]);
  return { pending: pending.rows, pendingTotal: total.rows[0]?.n ?? 0, decided: decided.rows };
}

/** The fields the tool gate checks, with the row locked until the caller's transaction ends. */
export type GrantRow = Pick<
  Approval,
  | 'id'
  | 'tool'
  | 'status'
  | 'args_hash'
  | 'customer_id'
  | 'thread_id'
  | 'expires_at'
  | 'result'
  | 'error'
  | 'created_at'
>;

export async function lockGrant(tx: Queryable, id: string): Promise<GrantRow | undefined> {
  return (
    await tx.query<GrantRow>(
      `SELECT id, tool, status, args_hash, customer_id, thread_id, expires_at, result, error, created_at
       FROM approvals WHERE id = $1 FOR UPDATE`,
      [id],
    )
  ).rows[0];
}

// ------------------------------------------------------------- transitions, in lifecycle order

/**
 * (proposal) → pending, guarded by the (thread_id, tool_call_id) key: recording the same proposal
 * again returns the stored row. A new one supersedes the thread's pending proposals it replaces
 * (same tool and target, see `replacesRequest`); independent ones stay pending.
 *
 * No transaction: ONE statement writes the proposal, the superseding and every audit row (atomic
 * as a transaction is). It inserts only if the thread has no other pending proposal, and returns
 * those otherwise; then `replacesRequest` picks the ones the new one replaces, and a second
 * statement inserts and supersedes them. A pending proposal's tool and arguments never change, and
 * one decided in between is left alone by the superseding UPDATE's status condition. Callers hold
 * the thread's lease, so no other proposal of the thread appears in between.
 */
export async function recordProposal(
  db: Queryable,
  p: {
    id: string;
    threadId: string;
    toolCallId: string;
    tool: string;
    args: Record<string, unknown>;
    /** The canonical form stored as both the original and the executable arguments. */
    canonical: unknown;
    hash: string;
    customerId: string | null;
    proposedBy: string;
    requestText: string | null;
    expiresAt: Date;
    at: Date;
  },
): Promise<{ approval: Approval; created: boolean; superseded: Approval[]; waiting?: Approval[] }> {
  const write = async (aloneOnly: boolean, replaced: string[]) =>
    (
      await db.query<Approval & { kind: 'new' | 'superseded' | 'other' | 'existing' }>(
        `WITH others AS (
           SELECT * FROM approvals WHERE $14::boolean AND thread_id = $2 AND status = 'pending' AND id <> $1
         ),
         inserted AS (
           INSERT INTO approvals (id, thread_id, tool_call_id, tool, status, args_original, args, args_hash,
                                  customer_id, proposed_by, request_text, expires_at, created_at)
           SELECT $1, $2, $3, $4, 'pending', $5, $5, $6, $7, $8, $9, $10, $11 WHERE NOT EXISTS (SELECT 1 FROM others)
           ON CONFLICT (thread_id, tool_call_id) DO NOTHING RETURNING *
         ),
         superseded AS (
           UPDATE approvals SET status = 'superseded', superseded_by = $1, decided_at = $11
           WHERE id = ANY($12::uuid[]) AND status = 'pending' AND EXISTS (SELECT 1 FROM inserted) RETURNING *
         ),
         logged AS (
           INSERT INTO audit_log (at, actor, action, approval_id, thread_id, customer_id, details)
           SELECT $11, $8, e.action, e.id, e.thread_id, e.customer_id, e.details FROM (
             SELECT 1 AS n, 'proposed' AS action, id, thread_id, customer_id, $13::jsonb AS details FROM inserted
             UNION ALL
             SELECT 2, 'superseded', id, thread_id, customer_id, jsonb_build_object('superseded_by', $1::uuid)
             FROM superseded
           ) e ORDER BY e.n, e.id
         )
         SELECT 'new' AS kind, * FROM inserted
         UNION ALL SELECT 'superseded', * FROM superseded
         UNION ALL SELECT 'other', * FROM others
         UNION ALL SELECT 'existing', * FROM approvals WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM inserted)`,
        [
          p.id,
          p.threadId,
          p.toolCallId,
          p.tool,
          p.canonical,
          p.hash,
          p.customerId,
          p.proposedBy,
          p.requestText,
          p.expiresAt,
          p.at,
          replaced,
          JSON.stringify({ tool: p.tool, args: p.args }),
          aloneOnly,
        ],
      )
    ).rows.map(({ kind, ...a }) => ({ kind, approval: a as Approval }));
  let rows = await write(true, []);
  const others = rows.filter((r) => r.kind === 'other').map((r) => r.approval);
  if (others.length && !rows.some((r) => r.kind === 'existing')) {
    // pending → superseded, only for the pending requests this one replaces (same target; which
    // tools can replace each other, e.g. a cancellation a pending move of the same booking, is
    // replacesRequest's to say)
    const replaced = others.filter((c) => replacesRequest({ tool: p.tool, args: p.args }, c)).map((c) => c.id);
    rows = await write(false, replaced);
  }
  const created = rows.find((r) => r.kind === 'new');
  if (!created) return { approval: rows.find((r) => r.kind === 'existing')!.approval, created: false, superseded: [] };
  const superseded = rows.filter((r) => r.kind === 'superseded').map((r) => r.approval);
  return {
    approval: created.approval,
    created: true,
    superseded,
    // The thread's pending requests as these statements left them: the others they read, less
    // those this one replaced, and this one (what a reply lists as waiting, without reading again).
    waiting: [...others.filter((o) => !superseded.some((x) => x.id === o.id)), created.approval],
  };
}

/**
 * pending → approved | rejected, while not expired, with its audit rows (an edit's first), in ONE
 * statement: atomic as a transaction is, one round trip, no BEGIN/COMMIT. Edited arguments
 * (already validated and hashed by the caller, who read the row for them) replace the executable
 * ones. `decided` is undefined when the row was not pending or had expired; `current` is then the
 * row as this statement's snapshot saw it (a race's winner may have committed since: a row still
 * pending and not expired there has lost a race, and the caller reads it again).
 */
export async function recordDecision(
  db: Queryable,
  d: {
    id: string;
    approver: string;
    decision: 'approve' | 'reject';
    at: Date;
    /** For an edit: the row as it was before the decision, for the edit's audit entry. */
    before?: Pick<Approval, 'args' | 'args_hash'>;
    args?: Record<string, unknown>;
    hash?: string;
    reason?: string;
  },
): Promise<{ decided?: Approval; current?: Approval }> {
  const approve = d.decision === 'approve';
  const edit = approve && d.args !== undefined && d.before !== undefined;
  const r = await db.query<Approval & { decided: boolean }>(
    `WITH decided AS (
       UPDATE approvals SET status = $4, approver = $2, decided_at = $3,
         args = COALESCE($5::jsonb, args), args_hash = COALESCE($6::text, args_hash),
         decision_reason = CASE WHEN $4 = 'rejected' THEN $7::text ELSE decision_reason END
       WHERE id = $1 AND status = 'pending' AND expires_at > $3 RETURNING *
     ),
     logged AS (
       INSERT INTO audit_log (at, actor, action, approval_id, thread_id, customer_id, details)
       SELECT $3, $2, e.action, d.id, d.thread_id, d.customer_id, e.details
       FROM decided d CROSS JOIN LATERAL (VALUES
         (1, 'edited', jsonb_build_object('before', $9::jsonb, 'after', d.args)),
         (2, CASE WHEN $4 = 'approved' THEN 'approved' ELSE 'rejected' END,
             CASE WHEN $4 = 'approved' THEN jsonb_build_object('args', d.args)
                  ELSE jsonb_build_object('reason', $8::text) END)
       ) AS e(n, action, details)
       WHERE e.n = 2 OR ($10::text IS NOT NULL AND d.args_hash <> $10::text)
       ORDER BY e.n
     )
     SELECT true AS decided, * FROM decided
     UNION ALL
     SELECT false, * FROM approvals WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM decided)`,
    [
      d.id,
      d.approver,
      d.at,
      approve ? 'approved' : 'rejected',
      approve && d.args ? JSON.stringify(d.args) : null,
      approve ? (d.hash ?? null) : null,
      approve ? null : (d.reason?.slice(0, 2000) ?? null),
      approve ? null : (d.reason ?? null),
      edit ? JSON.stringify(d.before!.args) : null,
      edit ? d.before!.args_hash : null,
    ],
  );
  const row = r.rows[0];
  if (!row) return {};
  const { decided, ...approval } = row;
  return decided ? { decided: approval as Approval } : { current: approval as Approval };
}

/** pending → expired for every approval past its expiry; returns the ones this call expired. */
export async function expireDue(tx: Queryable, at: Date): Promise<Approval[]> {
  const rows = (
    await tx.query<Approval>(
      `UPDATE approvals SET status = 'expired', decided_at = $1
       WHERE status = 'pending' AND expires_at <= $1 RETURNING *`,
      [at],
    )
  ).rows;
  for (const r of rows) await audit(tx, { at, actor: 'system', action: 'expired', approval: r });
  return rows;
}

/** pending → withdrawn: the customer took the request (or all of the thread's) back. */
export async function withdraw(
  tx: Queryable,
  p: { threadId: string; approvalIds?: string[]; actor: string; reason?: string; at: Date },
): Promise<Approval[]> {
  const rows = (
    await tx.query<Approval>(
      `UPDATE approvals SET status = 'withdrawn', decided_at = $2, decision_reason = $4
       WHERE thread_id = $1 AND status = 'pending' AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[])) RETURNING *`,
      [p.threadId, p.at, p.approvalIds?.length ? p.approvalIds : null, p.reason ?? null],
    )
  ).rows;
  for (const r of rows)
    await audit(tx, {
      at: p.at,
      actor: p.actor,
      action: 'withdrawn',
      approval: r,
      details: { reason: p.reason ?? null },
    });
  return rows;
}

/** approved → executing, claimed by `worker` (a second claim of a grant already executing just renews it). */
export async function markExecuting(db: Queryable, id: string, worker: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE approvals SET status = 'executing', claimed_by = $2, claimed_at = $3
     WHERE id = $1 AND status IN ('approved', 'executing')`,
    [id, worker, at],
  );
}

/**
 * approved → executing, claimed by `worker`, and the row as it is then, in one statement: what
 * the caller runs next. A row that was not approved is returned unchanged (as the statement's
 * snapshot saw it: a decision or an execution committing meanwhile shows on the next read).
 */
export async function claimGrant(db: Queryable, id: string, worker: string, at: Date): Promise<Approval | undefined> {
  return (
    await db.query<Approval>(
      `WITH claimed AS (
         UPDATE approvals SET status = 'executing', claimed_by = $2, claimed_at = $3
         WHERE id = $1 AND status = 'approved' RETURNING *
       )
       SELECT * FROM claimed
       UNION ALL
       SELECT * FROM approvals WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM claimed)`,
      [id, worker, at],
    )
  ).rows[0];
}

/**
 * approved | executing → executed, by the tool gate inside its transaction, with the grant row
 * locked (`lockGrant`), so exactly one call gets here for an approval. The transition and its
 * audit row are one statement.
 */
export async function recordExecuted(
  tx: Queryable,
  grant: ApprovalRef,
  e: { at: Date; actor: string; tool: string; result: unknown; via?: string },
): Promise<void> {
  await settleGrant(tx, grant, {
    set: `status = 'executed', executed_at = $2, result = $3, error = NULL`,
    value: e.result,
    at: e.at,
    actor: e.actor,
    action: 'executed',
    details: { tool: e.tool, result: e.result, via: e.via },
  });
}

/** approved | executing → failed: the business rules refused the write; stored so a replay gets the same answer. */
export async function recordFailed(
  tx: Queryable,
  grant: ApprovalRef,
  e: { at: Date; actor: string; tool: string; error: unknown; via?: string },
): Promise<void> {
  await settleGrant(tx, grant, {
    set: `status = 'failed', executed_at = $2, error = $3`,
    value: e.error,
    at: e.at,
    actor: e.actor,
    action: 'execution_failed',
    details: { tool: e.tool, error: e.error, via: e.via },
  });
}

/** A grant's outcome (`set`, with $2 the time and $3 `value`) and its audit row, in one statement. */
async function settleGrant(
  tx: Queryable,
  grant: ApprovalRef,
  o: { set: string; value: unknown; at: Date; actor: string; action: string; details: unknown },
): Promise<void> {
  await tx.query(
    `WITH settled AS (UPDATE approvals SET ${o.set} WHERE id = $1 RETURNING id)
     INSERT INTO audit_log (at, actor, action, approval_id, thread_id, customer_id, details)
     SELECT $2, $4, $5, id, $6, $7, $8 FROM settled`,
    [
      grant.id,
      o.at,
      JSON.stringify(o.value),
      o.actor,
      o.action,
      grant.thread_id,
      grant.customer_id,
      JSON.stringify(o.details ?? {}),
    ],
  );
}

// ------------------------------------------------------------- bookkeeping beside the lifecycle

/** The conversation has been told the outcome (set once); returns the rows this call marked. */
export async function markOutcomeDelivered(db: Queryable, ids: string[], at: Date): Promise<Approval[]> {
  return (
    await db.query<Approval>(
      `UPDATE approvals SET outcome_delivered_at = $2
       WHERE id = ANY($1::uuid[]) AND outcome_delivered_at IS NULL RETURNING *`,
      [ids, at],
    )
  ).rows;
}

export async function setCard(db: Queryable, id: string, channel: string, ts: string): Promise<void> {
  await db.query(`UPDATE approvals SET card_channel = $2, card_ts = $3 WHERE id = $1`, [id, channel, ts]);
}

/** Record the approval's card unless one is recorded already; false: another post won, delete ours. */
export async function attachCard(db: Queryable, id: string, channel: string, ts: string): Promise<boolean> {
  const won = await db.query(`UPDATE approvals SET card_channel = $2, card_ts = $3 WHERE id = $1 AND card_ts IS NULL`, [
    id,
    channel,
    ts,
  ]);
  return won.rowCount !== 0;
}
