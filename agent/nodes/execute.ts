import type { AgentDeps } from '../deps.js';
import { callMeta } from '../deps.js';
import { approvalEventMessage } from '../plan-context.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { wasEdited } from './apply-decision.js';

/**
 * Execute an approved write through the tool server, with the approval id. This node may run
 * more than once for one approval (LangGraph resumes are at-least-once; a worker may die here):
 * the tool layer makes that safe, returning the stored result for an approval already consumed.
 */
export const executeNode = (deps: AgentDeps) => async (state: AgentStateType): Promise<AgentUpdate> => {
  const approval = (await deps.ledger.get(state.deciding!))!;
  const log = deps.logger.child({ thread_id: state.threadId, approval_id: approval.id, tool: approval.tool });
  if (approval.status === 'approved') await deps.ledger.markExecuting(approval.id, deps.workerId);
  const out = await deps.tools.call(approval.tool, approval.args, callMeta(state, { approval_id: approval.id }));
  if (!out.ok && out.error.code === 'internal') {
    // Nothing was written (the gate rolled back) and the grant is still valid: fail the run so the
    // sweeper retries, rather than telling the customer it failed.
    throw new Error(`tool server error while executing ${approval.id}: ${out.error.message}`);
  }
  log.info({ ok: out.ok, replay: out.ok ? out.replay : undefined }, 'executed approved write');
  const event = approvalEventMessage({
    approval_id: approval.id,
    tool: approval.tool,
    args: approval.args,
    original_args: wasEdited(approval) ? approval.args_original : undefined,
    edited: wasEdited(approval),
    approver: approval.approver ?? undefined,
    ...(out.ok ? { status: 'executed' as const, result: out.result } : { status: 'failed' as const, error: out.error }),
  });
  return {
    messages: [event],
    pending: state.pending.filter((p) => p.approval_id !== approval.id),
    deciding: null,
  };
};
