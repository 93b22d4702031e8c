import type { AgentDeps } from '../deps.js';
import { callMeta } from '../deps.js';
import { grantOutcomeMessage, runGrant } from '../approvals/run-grant.js';
import type { Approval } from '../approvals/ledger.js';
import type { AgentStateType, AgentUpdate } from '../state.js';

/**
 * Execute an approved write through the tool server, with the approval id. This node may run
 * more than once for one approval (LangGraph resumes are at-least-once; a worker may die here):
 * the tool layer makes that safe, returning the stored result for an approval already consumed.
 */
export const executeNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType): Promise<AgentUpdate> => {
    // Read and claimed in one statement: runGrant finds it executing and claims nothing more.
    const approval = (await deps.ledger.claim(state.deciding!, deps.workerId))!;
    return executeGrant(deps, state, approval);
  };

/** `executeNode` with the approval already claimed (as `applyDecision` leaves it). */
export async function executeGrant(deps: AgentDeps, state: AgentStateType, approval: Approval): Promise<AgentUpdate> {
  const log = deps.logger.child({ thread_id: state.threadId, approval_id: approval.id, tool: approval.tool });
  const out = await runGrant(deps, approval, callMeta(state));
  log.info({ ok: out.ok, replay: out.ok ? out.replay : undefined }, 'executed approved write');
  return {
    messages: [grantOutcomeMessage(approval, out)],
    pending: state.pending.filter((p) => p.approval_id !== approval.id),
    deciding: null,
  };
}
