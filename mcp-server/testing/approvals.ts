import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../core/pg-pool.js';
import { parseToolArgs } from '../../schema/tools/catalog.js';
import type { ApprovalStatus } from '../../schema/approval-status.js';

export type { ApprovalStatus };

/**
 * An approval row written straight into the ledger, for tests of the tool layer that must not
 * depend on the agent's ledger module: hash and canonical args computed exactly as the ledger does
 * (`parseToolArgs`), so a call with the same arguments matches and any other does not.
 */
export async function insertApproval(
  db: Queryable,
  opts: {
    tool: string;
    args: Record<string, unknown>;
    status?: ApprovalStatus;
    expiresAt?: Date | string;
    customerId?: string | null;
    threadId?: string;
    createdAt?: Date | string;
  },
): Promise<string> {
  const parsed = parseToolArgs(opts.tool, opts.args);
  if (!parsed.ok) throw new Error(`insertApproval: invalid ${opts.tool} args: ${JSON.stringify(parsed.issues)}`);
  const id = randomUUID();
  const status = opts.status ?? 'approved';
  const created = new Date(opts.createdAt ?? '2026-12-07T13:00:00.000Z');
  const decided = !['pending'].includes(status);
  await db.query(
    `INSERT INTO approvals (id, thread_id, tool_call_id, tool, status, args_original, args, args_hash, customer_id,
       proposed_by, approver, decided_at, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, 'test', $9, $10, $11, $12)`,
    [
      id,
      opts.threadId ?? `test:${id}`,
      `call_${id}`,
      opts.tool,
      status,
      parsed.canonical,
      parsed.hash,
      opts.customerId === undefined ? ((parsed.args.customer_id as string | undefined) ?? null) : opts.customerId,
      decided ? 'slack:U01MGR0001' : null,
      decided ? created : null,
      new Date(opts.expiresAt ?? '2026-12-07T18:00:00.000Z'),
      created,
    ],
  );
  return id;
}

export async function approvalRow(db: Queryable, id: string) {
  const res = await db.query<{ status: string; result: unknown; error: unknown; executed_at: Date | null }>(
    `SELECT status, result, error, executed_at FROM approvals WHERE id = $1`,
    [id],
  );
  return res.rows[0];
}
