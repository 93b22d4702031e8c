import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import { withTransaction, type Pool, type Queryable } from '../../core/db.js';
import { parseToolArgs, getWriteTool } from '../../mcp-server/registry.js';
import type { ApprovalStatus } from '../../schema/approval-status.js';

/**
 * The approval ledger. Every transition is one conditional UPDATE guarded by the current status
 * (and expiry), so concurrent clicks, retries and sweepers always have exactly one winner; every
 * transition appends to the audit log in the same transaction.
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

export const DECIDED_STATUSES: readonly ApprovalStatus[] = ['approved', 'rejected', 'executing', 'executed', 'failed'];

export class LedgerError extends Error {
  constructor(
    readonly code:
      | 'not_found'
      | 'already_decided'
      | 'expired'
      | 'invalid_arguments'
      | 'not_mutating'
      | 'not_pending',
    message: string,
    readonly approval?: Approval,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** Same thread and tool call → same approval id, so re-running the proposing node is harmless. */
export function approvalIdFor(threadId: string, toolCallId: string): string {
  const h = createHash('sha256').update(`${threadId}\u0000${toolCallId}`).digest('hex');
  // RFC 4122 layout, version 8 (custom), variant 10.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function audit(
  db: Queryable,
  e: { at: Date; actor: string; action: string; approval?: Pick<Approval, 'id' | 'thread_id' | 'customer_id'>; details?: unknown },
) {
  await db.query(
    `INSERT INTO audit_log (at, actor, action, approval_id, thread_id, customer_id, details) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [e.at, e.actor, e.action, e.approval?.id ?? null, e.approval?.thread_id ?? null, e.approval?.customer_id ?? null, JSON.stringify(e.details ?? {})],
  );
}

export class Ledger {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly ttlMinutes: number,
  ) {}

  async get(id: string, db: Queryable = this.pool): Promise<Approval | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    return (await db.query<Approval>(`SELECT * FROM approvals WHERE id = $1`, [id])).rows[0];
  }

  async list(filter: { status?: ApprovalStatus; threadId?: string; customerId?: string; limit?: number } = {}): Promise<Approval[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status) where.push(`status = $${params.push(filter.status)}`);
    if (filter.threadId) where.push(`thread_id = $${params.push(filter.threadId)}`);
    if (filter.customerId) where.push(`customer_id = $${params.push(filter.customerId)}`);
    const sql = `SELECT * FROM approvals ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
                 ORDER BY created_at ${filter.status === 'pending' ? 'ASC' : 'DESC'} LIMIT ${Math.min(filter.limit ?? 100, 500)}`;
    return (await this.pool.query<Approval>(sql, params)).rows;
  }

  /**
   * Record a proposed write. Idempotent on (thread, tool call). Pending proposals of the same tool
   * in the same thread are superseded by it ("actually make it 3pm").
   */
  async propose(p: {
    threadId: string;
    toolCallId: string;
    tool: string;
    rawArgs: unknown;
    customerId: string | null;
    proposedBy: string;
    requestText: string | null;
  }): Promise<{ approval: Approval; created: boolean; superseded: Approval[] }> {
    if (!getWriteTool(p.tool)) throw new LedgerError('not_mutating', `${p.tool} is not a mutating tool`);
    const parsed = parseToolArgs(p.tool, p.rawArgs);
    if (!parsed.ok) throw new LedgerError('invalid_arguments', `invalid arguments for ${p.tool}`, undefined, parsed.issues);
    const id = approvalIdFor(p.threadId, p.toolCallId);
    const now = this.clock.now();
    return withTransaction(this.pool, async (tx) => {
      const inserted = await tx.query<Approval>(
        `INSERT INTO approvals (id, thread_id, tool_call_id, tool, status, args_original, args, args_hash, customer_id,
                                proposed_by, request_text, expires_at, created_at)
         VALUES ($1, $2, $3, $4, 'pending', $5, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (thread_id, tool_call_id) DO NOTHING RETURNING *`,
        [id, p.threadId, p.toolCallId, p.tool, parsed.canonical, parsed.hash, p.customerId, p.proposedBy,
          p.requestText?.slice(0, 3000) ?? null, new Date(now.getTime() + this.ttlMinutes * 60_000), now],
      );
      if (!inserted.rows[0]) return { approval: (await this.get(id, tx))!, created: false, superseded: [] };
      const approval = inserted.rows[0];
      await audit(tx, { at: now, actor: p.proposedBy, action: 'proposed', approval, details: { tool: p.tool, args: parsed.args } });
      const superseded = (
        await tx.query<Approval>(
          `UPDATE approvals SET status = 'superseded', superseded_by = $1, decided_at = $4
           WHERE thread_id = $2 AND tool = $3 AND status = 'pending' AND id <> $1 RETURNING *`,
          [id, p.threadId, p.tool, now],
        )
      ).rows;
      for (const s of superseded) {
        await audit(tx, { at: now, actor: p.proposedBy, action: 'superseded', approval: s, details: { superseded_by: id } });
      }
      return { approval, created: true, superseded };
    });
  }

  /**
   * A manager's decision: one conditional UPDATE, so two managers clicking at once have one
   * winner and the other learns what happened. Edited arguments are validated with the tool's own
   * schema and replace the executable arguments (the original ones are kept).
   */
  async decide(d: {
    approvalId: string;
    approver: string;
    decision: 'approve' | 'reject';
    args?: unknown;
    reason?: string;
  }): Promise<Approval> {
    const existing = await this.get(d.approvalId);
    if (!existing) throw new LedgerError('not_found', `No approval ${d.approvalId}.`);
    let args: Record<string, unknown> | undefined;
    let hash: string | undefined;
    if (d.decision === 'approve' && d.args !== undefined) {
      const parsed = parseToolArgs(existing.tool, d.args);
      if (!parsed.ok) throw new LedgerError('invalid_arguments', `The edited arguments are not valid for ${existing.tool}.`, existing, parsed.issues);
      args = parsed.args;
      hash = parsed.hash;
    }
    const now = this.clock.now();
    return withTransaction(this.pool, async (tx) => {
      const updated = await tx.query<Approval>(
        d.decision === 'approve'
          ? `UPDATE approvals SET status = 'approved', approver = $2, decided_at = $3,
                    args = COALESCE($4::jsonb, args), args_hash = COALESCE($5::text, args_hash)
             WHERE id = $1 AND status = 'pending' AND expires_at > $3 RETURNING *`
          : `UPDATE approvals SET status = 'rejected', approver = $2, decided_at = $3, decision_reason = $4
             WHERE id = $1 AND status = 'pending' AND expires_at > $3 RETURNING *`,
        d.decision === 'approve'
          ? [d.approvalId, d.approver, now, args ? JSON.stringify(args) : null, hash ?? null]
          : [d.approvalId, d.approver, now, d.reason?.slice(0, 2000) ?? null],
      );
      const row = updated.rows[0];
      if (!row) {
        const current = (await this.get(d.approvalId, tx))!;
        if (current.status === 'pending' || current.status === 'expired') {
          throw new LedgerError('expired', `Approval ${d.approvalId} expired at ${current.expires_at.toISOString()}.`, current);
        }
        throw new LedgerError('already_decided', `Approval ${d.approvalId} is already ${current.status}${current.approver ? ` (by ${current.approver})` : ''}.`, current);
      }
      const edited = row.args_hash !== existing.args_hash;
      if (edited) {
        await audit(tx, { at: now, actor: d.approver, action: 'edited', approval: row, details: { before: existing.args, after: row.args } });
      }
      await audit(tx, {
        at: now,
        actor: d.approver,
        action: d.decision === 'approve' ? 'approved' : 'rejected',
        approval: row,
        details: d.decision === 'reject' ? { reason: d.reason ?? null } : { args: row.args },
      });
      return row;
    });
  }

  /** Pending approvals past their expiry become expired; returns the ones this call expired. */
  async expireDue(): Promise<Approval[]> {
    const now = this.clock.now();
    return withTransaction(this.pool, async (tx) => {
      const rows = (
        await tx.query<Approval>(
          `UPDATE approvals SET status = 'expired', decided_at = $1 WHERE status = 'pending' AND expires_at <= $1 RETURNING *`,
          [now],
        )
      ).rows;
      for (const r of rows) await audit(tx, { at: now, actor: 'system', action: 'expired', approval: r });
      return rows;
    });
  }

  /** The customer took the request back before anyone decided. */
  async withdraw(p: { threadId: string; approvalIds?: string[]; actor: string; reason?: string }): Promise<Approval[]> {
    const now = this.clock.now();
    return withTransaction(this.pool, async (tx) => {
      const rows = (
        await tx.query<Approval>(
          `UPDATE approvals SET status = 'withdrawn', decided_at = $2, decision_reason = $4
           WHERE thread_id = $1 AND status = 'pending' AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[])) RETURNING *`,
          [p.threadId, now, p.approvalIds?.length ? p.approvalIds : null, p.reason ?? null],
        )
      ).rows;
      for (const r of rows) await audit(tx, { at: now, actor: p.actor, action: 'withdrawn', approval: r, details: { reason: p.reason ?? null } });
      return rows;
    });
  }

  /** Mark an approved grant as being executed by `worker` (lifecycle: approved → executing). */
  async markExecuting(id: string, worker: string): Promise<void> {
    await this.pool.query(
      `UPDATE approvals SET status = 'executing', claimed_by = $2, claimed_at = $3 WHERE id = $1 AND status IN ('approved', 'executing')`,
      [id, worker, this.clock.now()],
    );
  }

  async markOutcomeDelivered(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.pool.query(`UPDATE approvals SET outcome_delivered_at = $2 WHERE id = ANY($1::uuid[]) AND outcome_delivered_at IS NULL`, [
      ids,
      this.clock.now(),
    ]);
  }

  /** Decided approvals whose outcome never reached the conversation (a worker died): for the sweeper. */
  async undelivered(olderThanMs: number): Promise<Approval[]> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    return (
      await this.pool.query<Approval>(
        `SELECT * FROM approvals
         WHERE outcome_delivered_at IS NULL AND decided_at IS NOT NULL AND decided_at <= $1
           AND status IN ('approved', 'executing', 'executed', 'failed', 'rejected', 'expired')
         ORDER BY decided_at LIMIT 50`,
        [cutoff],
      )
    ).rows;
  }

  async setCard(id: string, channel: string, ts: string): Promise<void> {
    await this.pool.query(`UPDATE approvals SET card_channel = $2, card_ts = $3 WHERE id = $1`, [id, channel, ts]);
  }

  async auditTrail(filter: { approvalId?: string; threadId?: string; customerId?: string; actor?: string }) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.approvalId) where.push(`approval_id = $${params.push(filter.approvalId)}`);
    if (filter.threadId) where.push(`thread_id = $${params.push(filter.threadId)}`);
    if (filter.customerId) where.push(`customer_id = $${params.push(filter.customerId)}`);
    if (filter.actor) where.push(`actor = $${params.push(filter.actor)}`);
    return (
      await this.pool.query(
        `SELECT id, at, actor, action, approval_id, thread_id, customer_id, details FROM audit_log
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id LIMIT 1000`,
        params,
      )
    ).rows;
  }
}
