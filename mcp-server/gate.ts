import type { z } from 'zod';
import { withTransaction } from '../core/pg-pool.js';
import { hashArgs } from '../schema/tools/canonical.js';
import { lockGrant, recordExecuted, recordFailed } from '../schema/approvals/store.js';
import type { ToolContext, WriteTool } from './tool-handler.js';
import { ToolError } from '../schema/tools/errors.js';

type Outcome = { ok: true; result: unknown; replay: boolean } | { ok: false; error: ToolError };

/**
 * The gate, enforced where the write happens rather than in the prompt or the graph: a mutating
 * tool runs only for an approval that a manager approved, for exactly these arguments. In ONE
 * transaction: lock the approval row, check it, write, store the result and mark it consumed,
 * append to the audit log. A concurrent or repeated call with the same approval waits on the row
 * lock, then finds it consumed and gets the stored result: exactly one write, whatever the number
 * of resumes, workers or retries.
 */
export async function runGatedWrite(
  tool: WriteTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  approvalId: string | undefined,
): Promise<{ result: unknown; replay: boolean }> {
  if (!approvalId) {
    throw new ToolError(
      'approval_required',
      `${tool.name} changes data and needs an approved approval id (_meta.approval_id).`,
    );
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(approvalId)) {
    throw new ToolError('approval_not_found', `No approval ${JSON.stringify(approvalId.slice(0, 64))}.`);
  }
  const hash = hashArgs(args);
  const now = ctx.clock.now();
  const log = ctx.logger.child({ approval_id: approvalId, tool: tool.name });

  const outcome = await withTransaction<Outcome>(ctx.pool, async (tx) => {
    const row = await lockGrant(tx, approvalId);
    if (!row) throw new ToolError('approval_not_found', `No approval ${approvalId}.`);
    if (row.tool !== tool.name || row.args_hash !== hash) {
      throw new ToolError(
        'arguments_mismatch',
        `Approval ${approvalId} was granted for other arguments` +
          (row.tool !== tool.name ? ` (tool ${row.tool})` : '') +
          '; nothing was done.',
        {
          approved_tool: row.tool,
        },
      );
    }
    if (ctx.scope.kind === 'customer' && row.customer_id !== ctx.scope.customerId) {
      throw new ToolError('out_of_scope', `Approval ${approvalId} belongs to another conversation.`);
    }
    switch (row.status) {
      case 'executed':
        return { ok: true, result: row.result, replay: true };
      case 'failed':
        return {
          ok: false,
          error: new ToolError(
            (row.error?.code as ToolError['code'] | undefined) ?? 'internal',
            row.error?.message ?? 'failed',
            { ...row.error?.details, replay: true },
          ),
        };
      case 'expired':
        throw new ToolError(
          'approval_expired',
          `Approval ${approvalId} expired at ${row.expires_at.toISOString()} without a decision.`,
        );
      case 'pending':
        if (row.expires_at.getTime() <= now.getTime()) {
          throw new ToolError(
            'approval_expired',
            `Approval ${approvalId} expired at ${row.expires_at.toISOString()} without a decision.`,
          );
        }
        throw new ToolError('approval_not_approved', `Approval ${approvalId} is still pending a manager's decision.`, {
          status: row.status,
        });
      case 'approved':
      case 'executing':
        break;
      default:
        throw new ToolError('approval_not_approved', `Approval ${approvalId} is ${row.status}; nothing was done.`, {
          status: row.status,
        });
    }

    await tx.query('SAVEPOINT gated_write');
    try {
      const produced = await tool.handler(args as never, { ...ctx, tx, approvalId, requestedAt: row.created_at });
      const result = (tool.output as z.ZodType).parse(produced);
      await recordExecuted(tx, row, { at: now, actor: actorOf(ctx), tool: tool.name, result, via: ctx.via });
      return { ok: true, result, replay: false };
    } catch (err) {
      if (!(err instanceof ToolError)) throw err; // unexpected: roll back everything, the grant stays usable
      // A refusal from the business rules (slot taken, out of scope) is an outcome too: record it,
      // so a replay returns the same answer and the card can show it.
      await tx.query('ROLLBACK TO SAVEPOINT gated_write');
      await recordFailed(tx, row, { at: now, actor: actorOf(ctx), tool: tool.name, error: err.toJSON(), via: ctx.via });
      return { ok: false, error: err };
    }
  });
  if (!outcome.ok) {
    log.warn({ code: outcome.error.code }, 'gated write refused by business rules');
    throw outcome.error;
  }
  log.info(
    { replay: outcome.replay },
    outcome.replay ? 'returned stored result for a repeated call' : 'executed approved write',
  );
  return { result: outcome.result, replay: outcome.replay };
}

/**
 * A rehearsal: run the handler in a transaction that is always rolled back. The agent uses it
 * before asking a manager, so that a taken slot or an unknown customer is known before the card
 * goes out. Nothing is committed, so no approval is needed.
 */
export async function dryRunWrite(tool: WriteTool, args: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  const client = await ctx.pool.connect();
  try {
    await client.query('BEGIN');
    const produced = await tool.handler(args as never, {
      ...ctx,
      tx: client,
      approvalId: '00000000-0000-0000-0000-000000000000',
      requestedAt: ctx.clock.now(),
    });
    return (tool.output as z.ZodType).parse(produced);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

// The actor comes from the scope, which `scopeFor` derived from the credential: over HTTP a staff
// actor is the key's name, never a `_meta.staff_id`.
const actorOf = (ctx: ToolContext) =>
  ctx.scope.kind === 'customer'
    ? `customer:${ctx.scope.customerId}`
    : ctx.scope.kind === 'staff'
      ? `staff:${ctx.scope.staffId}`
      : 'anonymous';
