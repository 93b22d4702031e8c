import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { ApprovalExpiry } from '../../core/config.js';
import { expiryAfter } from '../../schema/business/business-time.js';
import { withTransaction, type Pool, type Queryable } from '../../core/pg-pool.js';
import { isMutating, parseToolArgs } from '../../schema/tools/catalog.js';
import * as store from '../../schema/approvals/store.js';
import { customerChangeIssue } from './fixed-customer.js';
import type { Approval, ApprovalStatus } from '../../schema/approvals/store.js';

/**
 * The approval ledger: validation, ids and the clock around the approvals store
 * (schema/approvals/store.ts), which holds every statement and the lifecycle. Each call is one
 * transaction, so a transition and its audit rows land together or not at all.
 */

export type { Approval, ApprovalStatus };

export const DECIDED_STATUSES: readonly ApprovalStatus[] = ['approved', 'rejected', 'executing', 'executed', 'failed'];

/** A manager's decision on one approval: edited arguments with an approval, a reason with a rejection. */
export interface Decision {
  approvalId: string;
  approver: string;
  decision: 'approve' | 'reject';
  args?: unknown;
  reason?: string;
}

/**
 * What is wrong with edited arguments, on the argument's dotted path ('' = the request as a whole).
 * A refusal of the rehearsal adds the tool's error code and, for a time, the free times it offered.
 */
export interface ArgumentIssue {
  path: string;
  message: string;
  code?: string;
  alternatives?: Record<string, unknown>[];
}

export class LedgerError extends Error {
  constructor(
    readonly code:
      | 'not_found'
      | 'already_decided'
      | 'expired'
      | 'invalid_arguments'
      | 'not_mutating'
      | 'not_pending'
      // The edit could not be rehearsed (tool server unreachable or failing): nothing was approved.
      | 'rehearsal_unavailable',
    message: string,
    readonly approval?: Approval,
    readonly issues?: ArgumentIssue[],
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** Same thread and tool call → same approval id, so re-running the proposing node is harmless. */
export function approvalIdFor(threadId: string, toolCallId: string): string {
  const h = createHash('sha256').update(`${threadId}\u0000${toolCallId}`).digest('hex');
  // RFC 4122 layout, version 8 (custom), variant 10.
  const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class Ledger {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    /** How long a proposal waits for a decision, counted in the business's time zone. */
    private readonly expiry: { policy: ApprovalExpiry; timeZone: string },
  ) {}

  async get(id: string, db: Queryable = this.pool): Promise<Approval | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    return store.getApproval(db, id);
  }

  async list(
    filter: { status?: ApprovalStatus; threadId?: string; customerId?: string; limit?: number } = {},
  ): Promise<Approval[]> {
    return store.listApprovals(this.pool, filter);
  }

  /**
   * The thread's approvals, newest first, read by the statement that runs `alongside`; it also marks
   * the outcomes of `toldIds` delivered (store.threadApprovalsWith).
   */
  async listThreadWith<T>(
    threadId: string,
    alongside: { sql: string; params: unknown[] },
    toldIds: string[] = [],
  ): Promise<{ approvals: Approval[]; rows: T[] }> {
    const mark = toldIds.length ? { ids: toldIds, at: this.clock.now() } : undefined;
    return store.threadApprovalsWith<T>(this.pool, threadId, alongside, mark);
  }

  /**
   * Record a proposed write. Idempotent on (thread, tool call). Pending proposals of the same tool
   * in the same thread that it replaces (same target: "actually make it 3pm") are superseded by it.
   */
  async propose(p: {
    threadId: string;
    toolCallId: string;
    tool: string;
    rawArgs: unknown;
    customerId: string | null;
    proposedBy: string;
    requestText: string | null;
  }): Promise<{ approval: Approval; created: boolean; superseded: Approval[]; waiting?: Approval[] }> {
    if (!isMutating(p.tool)) throw new LedgerError('not_mutating', `${p.tool} is not a mutating tool`);
    const parsed = parseToolArgs(p.tool, p.rawArgs);
    if (!parsed.ok)
      throw new LedgerError('invalid_arguments', `invalid arguments for ${p.tool}`, undefined, parsed.issues);
    const now = this.clock.now();
    return store.recordProposal(this.pool, {
      id: approvalIdFor(p.threadId, p.toolCallId),
      threadId: p.threadId,
      toolCallId: p.toolCallId,
      tool: p.tool,
      args: parsed.args,
      canonical: parsed.canonical,
      hash: parsed.hash,
      customerId: p.customerId,
      proposedBy: p.proposedBy,
      requestText: p.requestText?.slice(0, 3000) ?? null,
      expiresAt: expiryAfter(now, this.expiry.policy, this.expiry.timeZone),
      at: now,
    });
  }

  /**
   * A manager's decision: one conditional UPDATE, so two managers clicking at once have one
   * winner and the other learns what happened. Edited arguments are validated with the tool's own
   * schema and replace the executable arguments (the original ones are kept). Without an edit the
   * decision is one statement (its audit rows included); an edit first reads the row it checks.
   */
  async decide(d: Decision): Promise<Approval> {
    if (!/^[0-9a-f-]{36}$/i.test(d.approvalId)) throw new LedgerError('not_found', `No approval ${d.approvalId}.`);
    let edit: { args: Record<string, unknown>; hash: string; before: Approval } | undefined;
    if (d.decision === 'approve' && d.args !== undefined) {
      const existing = await this.get(d.approvalId);
      if (!existing) throw new LedgerError('not_found', `No approval ${d.approvalId}.`);
      const parsed = parseToolArgs(existing.tool, d.args);
      // Every caller rehearses an edit first (AgentService.decide); the customer rule is the
      // ledger's own too, so no way of calling it can hand an approval to someone else.
      const customer = customerChangeIssue(existing, d.args);
      if (!parsed.ok || customer)
        throw new LedgerError(
          'invalid_arguments',
          `The edited arguments are not valid for ${existing.tool}.`,
          existing,
          [...(parsed.ok ? [] : parsed.issues), ...(customer ? [customer] : [])],
        );
      edit = { args: parsed.args, hash: parsed.hash, before: existing };
    }
    const now = this.clock.now();
    const out = await store.recordDecision(this.pool, {
      id: d.approvalId,
      approver: d.approver,
      decision: d.decision,
      at: now,
      ...(d.decision === 'approve'
        ? { args: edit?.args, hash: edit?.hash, before: edit?.before }
        : { reason: d.reason }),
    });
    if (out.decided) return out.decided;
    let current = out.current;
    // Still pending and in time in the statement's snapshot: a concurrent decision won; read what it made.
    if (current?.status === 'pending' && current.expires_at > now) current = await this.get(d.approvalId);
    if (!current) throw new LedgerError('not_found', `No approval ${d.approvalId}.`);
    if (current.status === 'pending' || current.status === 'expired') {
      throw new LedgerError(
        'expired',
        `Approval ${d.approvalId} expired at ${current.expires_at.toISOString()}.`,
        current,
      );
    }
    throw new LedgerError(
      'already_decided',
      `Approval ${d.approvalId} is already ${current.status}${current.approver ? ` (by ${current.approver})` : ''}.`,
      current,
    );
  }

  /** Pending approvals past their expiry become expired; returns the ones this call expired. */
  async expireDue(): Promise<Approval[]> {
    const now = this.clock.now();
    return withTransaction(this.pool, (tx) => store.expireDue(tx, now));
  }

  /** The customer took the request back before anyone decided. */
  async withdraw(p: { threadId: string; approvalIds?: string[]; actor: string; reason?: string }): Promise<Approval[]> {
    const now = this.clock.now();
    return withTransaction(this.pool, (tx) => store.withdraw(tx, { ...p, at: now }));
  }

  /** Mark an approved grant as being executed by `worker` (lifecycle: approved → executing). */
  async markExecuting(id: string, worker: string): Promise<void> {
    await store.markExecuting(this.pool, id, worker, this.clock.now());
  }

  /** The approval, claimed for execution by `worker` if it was approved (approved → executing). */
  async claim(id: string, worker: string): Promise<Approval | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    return store.claimGrant(this.pool, id, worker, this.clock.now());
  }

  /** The conversation has been told these outcomes; returns the approvals this call marked. */
  async markOutcomeDelivered(ids: string[]): Promise<Approval[]> {
    if (!ids.length) return [];
    return store.markOutcomeDelivered(this.pool, ids, this.clock.now());
  }

  /** Decided approvals whose outcome never reached the conversation (a worker died): for the sweeper. */
  async undelivered(olderThanMs: number): Promise<Approval[]> {
    return store.undeliveredOutcomes(this.pool, new Date(this.clock.now().getTime() - olderThanMs));
  }

  async setCard(id: string, channel: string, ts: string): Promise<void> {
    await store.setCard(this.pool, id, channel, ts);
  }

  async auditTrail(filter: { approvalId?: string; threadId?: string; customerId?: string; actor?: string }) {
    return store.auditTrail(this.pool, filter);
  }
}
