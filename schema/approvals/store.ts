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

/** Id and status of every approval of a thread: a before/after snapshot of a run. */
export async function threadStatuses(db: Queryable, threadId: string): Promise<{ id: string; status: string }[]> {
  return (
    await db.query<{ id: string; status: string }>(`SELECT id, status FROM approvals WHERE thread_id = $1`, [threadId])
  ).rows;
}

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
 * (same tool and target, see `replacesRequest`); independent ones stay pending. Run inside the
 * caller's transaction.
 */
export async function recordProposal(
  tx: Queryable,
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
): Promise<{ approval: Approval; created: boolean; superseded: Approval[] }> {
  const inserted = await tx.query<Approval>(
    `INSERT INTO approvals (id, thread_id, tool_call_id, tool, status, args_original, args, args_hash, customer_id,
                            proposed_by, request_text, expires_at, created_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (thread_id, tool_call_id) DO NOTHING RETURNING *`,
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
    ],
  );
  if (!inserted.rows[0]) return { approval: (await getApproval(tx, p.id))!, created: false, superseded: [] };
  const approval = inserted.rows[0];
  await audit(tx, {
    at: p.at,
    actor: p.proposedBy,
    action: 'proposed',
    approval,
    details: { tool: p.tool, args: p.args },
  });
  // pending → superseded, only for the pending requests this one replaces (same target; which
  // tools can replace each other, e.g. a cancellation a pending move of the same booking, is
  // replacesRequest's to say)
  const candidates = (
    await tx.query<Approval>(
      `SELECT * FROM approvals WHERE thread_id = $1 AND status = 'pending' AND id <> $2 FOR UPDATE`,
      [p.threadId, p.id],
    )
  ).rows;
  const replaced = candidates.filter((c) => replacesRequest({ tool: p.tool, args: p.args }, c)).map((c) => c.id);
  const superseded = replaced.length
    ? (
        await tx.query<Approval>(
          `UPDATE approvals SET status = 'superseded', superseded_by = $1, decided_at = $3
           WHERE id = ANY($2::uuid[]) AND status = 'pending' RETURNING *`,
          [p.id, replaced, p.at],
        )
      ).rows
    : [];
  for (const s of superseded) {
    await audit(tx, {
      at: p.at,
      actor: p.proposedBy,
      action: 'superseded',
      approval: s,
      details: { superseded_by: p.id },
    });
  }
  return { approval, created: true, superseded };
}

/**
 * pending → approved | rejected, while not expired. Edited arguments (already validated and
 * hashed by the caller) replace the executable ones. Returns undefined when the row was not
 * pending or had expired: the caller reads the current row to say why.
 */
export async function recordDecision(
  tx: Queryable,
  d: {
    id: string;
    approver: string;
    decision: 'approve' | 'reject';
    at: Date;
    /** The row as it was before the decision, for the edit's audit entry. */
    before: Pick<Approval, 'args' | 'args_hash'>;
    args?: Record<string, unknown>;
    hash?: string;
    reason?: string;
  },
): Promise<Approval | undefined> {
  const updated = await tx.query<Approval>(
    d.decision === 'approve'
      ? `UPDATE approvals SET status = 'approved', approver = $2, decided_at = $3,
                args = COALESCE($4::jsonb, args), args_hash = COALESCE($5::text, args_hash)
         WHERE id = $1 AND status = 'pending' AND expires_at > $3 RETURNING *`
      : `UPDATE approvals SET status = 'rejected', approver = $2, decided_at = $3, decision_reason = $4
         WHERE id = $1 AND status = 'pending' AND expires_at > $3 RETURNING *`,
    d.decision === 'approve'
      ? [d.id, d.approver, d.at, d.args ? JSON.stringify(d.args) : null, d.hash ?? null]
      : [d.id, d.approver, d.at, d.reason?.slice(0, 2000) ?? null],
  );
  const row = updated.rows[0];
  if (!row) return undefined;
  if (row.args_hash !== d.before.args_hash) {
    await audit(tx, {
      at: d.at,
      actor: d.approver,
      action: 'edited',
      approval: row,
      details: { before: d.before.args, after: row.args },
    });
  }
  await audit(tx, {
    at: d.at,
    actor: d.approver,
    action: d.decision === 'approve' ? 'approved' : 'rejected',
    approval: row,
    details: d.decision === 'reject' ? { reason: d.reason ?? null } : { args: row.args },
  });
  return row;
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
 * approved | executing → executed, by the tool gate inside its transaction, with the grant row
 * locked (`lockGrant`), so exactly one call gets here for an approval.
 */
export async function recordExecuted(
  tx: Queryable,
  grant: ApprovalRef,
  e: { at: Date; actor: string; tool: string; result: unknown; via?: string },
): Promise<void> {
  await tx.query(
    `UPDATE approvals SET status = 'executed', executed_at = $2, result = $3, error = NULL WHERE id = $1`,
    [grant.id, e.at, JSON.stringify(e.result)],
  );
  await audit(tx, {
    at: e.at,
    actor: e.actor,
    action: 'executed',
    approval: grant,
    details: { tool: e.tool, result: e.result, via: e.via },
  });
}

/** approved | executing → failed: the business rules refused the write; stored so a replay gets the same answer. */
export async function recordFailed(
  tx: Queryable,
  grant: ApprovalRef,
  e: { at: Date; actor: string; tool: string; error: unknown; via?: string },
): Promise<void> {
  await tx.query(`UPDATE approvals SET status = 'failed', executed_at = $2, error = $3 WHERE id = $1`, [
    grant.id,
    e.at,
    JSON.stringify(e.error),
  ]);
  await audit(tx, {
    at: e.at,
    actor: e.actor,
    action: 'execution_failed',
    approval: grant,
    details: { tool: e.tool, error: e.error, via: e.via },
  });
}

// ------------------------------------------------------------- bookkeeping beside the lifecycle

/** The conversation has been told the outcome (set once). */
export async function markOutcomeDelivered(db: Queryable, ids: string[], at: Date): Promise<void> {
  await db.query(
    `UPDATE approvals SET outcome_delivered_at = $2 WHERE id = ANY($1::uuid[]) AND outcome_delivered_at IS NULL`,
    [ids, at],
  );
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
