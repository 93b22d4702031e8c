import type { CallMeta } from '../../schema/tools/call-meta.js';
import { approvalEventMessage } from '../plan-context.js';
import type { ToolCallOutcome, ToolClient } from '../tool-client.js';
import type { Approval, Ledger } from './ledger.js';
import { wasEdited } from './was-edited.js';

/**
 * Run an approved write through the tool server with its approval id. Safe to call any number of
 * times for one approval: the gate executes a grant once and returns the stored result after that.
 * A tool-server fault (nothing was written, the grant still stands) is thrown, never reported as
 * the outcome, so the caller's run fails and the sweeper drives the approval again later.
 */
export async function runGrant(
  deps: { ledger: Ledger; tools: ToolClient; workerId: string },
  approval: Approval,
  meta: CallMeta,
): Promise<ToolCallOutcome> {
  if (approval.status === 'approved') await deps.ledger.markExecuting(approval.id, deps.workerId);
  const out = await deps.tools.call(approval.tool, approval.args, { ...meta, approval_id: approval.id });
  if (!out.ok && out.error.code === 'internal') {
    throw new Error(`tool server error while executing ${approval.id}: ${out.error.message}`);
  }
  return out;
}

/** What the conversation records about a write that ran (or could not). */
export function grantOutcomeMessage(approval: Approval, out: ToolCallOutcome) {
  return approvalEventMessage({
    approval_id: approval.id,
    tool: approval.tool,
    args: approval.args,
    original_args: wasEdited(approval) ? approval.args_original : undefined,
    edited: wasEdited(approval),
    approver: approval.approver ?? undefined,
    ...(out.ok ? { status: 'executed' as const, result: out.result } : { status: 'failed' as const, error: out.error }),
  });
}
