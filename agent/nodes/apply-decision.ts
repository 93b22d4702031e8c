import { AIMessage } from '@langchain/core/messages';
import type { AgentDeps } from '../deps.js';
import { approvalEventMessage } from '../plan-context.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import type { Approval } from '../approvals/ledger.js';
import { wasEdited } from '../approvals/was-edited.js';

const EXECUTABLE = new Set(['approved', 'executing', 'executed', 'failed']);
const FINAL_WITHOUT_WRITE = new Set(['rejected', 'expired', 'withdrawn', 'superseded']);

/**
 * Bring the ledger's decision into the conversation. The ledger is the truth (not the resume
 * payload): an edit rewrites the model's own tool call in the window, so what the model reads
 * next is what the manager approved.
 *
 * Returns the update and the approval as read for it. The read is the grant's claim (approved →
 * executing, `Ledger.claim`): an approved write is executed next, in the same graph step, which
 * takes this row instead of claiming it again.
 */
export async function applyDecision(
  deps: AgentDeps,
  state: AgentStateType,
): Promise<{ update: AgentUpdate; approval?: Approval }> {
  const entry = state.pending.find((p) => p.approval_id === state.deciding);
  if (!entry) return { update: { deciding: null } }; // a repeated resume: already handled
  const approval = await deps.ledger.claim(entry.approval_id, deps.workerId);
  if (!approval || approval.status === 'pending') return { update: { deciding: null } };

  const messages = [];
  if (wasEdited(approval)) {
    const caller = state.messages.find(
      (m) => AIMessage.isInstance(m) && m.tool_calls?.some((c) => c.id === entry.tool_call_id),
    ) as AIMessage | undefined;
    if (caller) {
      messages.push(
        new AIMessage({
          id: caller.id,
          content: caller.content,
          tool_calls: caller.tool_calls!.map((c) => (c.id === entry.tool_call_id ? { ...c, args: approval.args } : c)),
          response_metadata: caller.response_metadata,
        }),
      );
    }
  }
  if (EXECUTABLE.has(approval.status)) return { update: { messages, deciding: approval.id }, approval };
  if (FINAL_WITHOUT_WRITE.has(approval.status)) messages.push(decisionEventMessage(approval));
  return {
    update: { messages, pending: state.pending.filter((p) => p.approval_id !== approval.id), deciding: null },
    approval,
  };
}

/** The conversation's record of a decision that ends without a write (or of a write's stored outcome). */
export function decisionEventMessage(approval: Approval) {
  const edited = wasEdited(approval);
  const base = {
    approval_id: approval.id,
    tool: approval.tool,
    args: approval.args,
    original_args: edited ? approval.args_original : undefined,
    edited,
    approver: approval.approver ?? undefined,
  };
  if (approval.status === 'executed')
    return approvalEventMessage({ ...base, status: 'executed', result: approval.result });
  if (approval.status === 'failed')
    return approvalEventMessage({ ...base, status: 'failed', error: approval.error ?? undefined });
  return approvalEventMessage({
    ...base,
    status: approval.status as 'rejected' | 'expired' | 'withdrawn' | 'superseded',
    reason: approval.decision_reason ?? undefined,
  });
}

export function routeAfterDecision(state: AgentStateType): 'execute' | 'plan' | 'await_decision' | '__end__' {
  if (state.deciding) return 'execute';
  const last = state.messages[state.messages.length - 1];
  if (last && last.name === 'approval_update') return 'plan';
  return state.pending.length ? 'await_decision' : '__end__';
}
