import type { ToolMessage } from '@langchain/core/messages';
import { isMutating, parseToolArgs, READ_ONLY_TOOLS } from '../../schema/tools/catalog.js';
import type { Approval } from '../approvals/ledger.js';
import type { AgentDeps } from '../deps.js';
import { callMeta } from '../deps.js';
import { WITHDRAW_TOOL, WithdrawArgsSchema, type PendingApproval } from '../plan-context.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { requestText as requestTextOf } from '../window.js';
import { isPendingApproval, toolOutcomeMessage } from '../tool-outcome.js';
import { callOutcome, lastAi } from './tools.js';

/**
 * Turn the model's proposed writes into approvals. Which calls need one is decided here from the
 * registry's mutating set alone. Each write is first rehearsed (rolled back) so a manager is never
 * asked to approve something that can't work, then recorded in the ledger (idempotently), and the
 * model is told it is pending, not done.
 *
 * Besides the step's update, the thread's pending approvals as the ledger's proposal statement left them
 * when the step proposed exactly one write and changed nothing else in the ledger (else undefined):
 * the reply that follows lists them without reading the ledger again (graph.ts).
 */
export async function propose(
  deps: AgentDeps,
  state: AgentStateType,
): Promise<{ update: AgentUpdate; waiting?: Approval[] }> {
  const messages: ToolMessage[] = [];
  let waiting: Approval[] | undefined;
  let ledgerCalls = 0;
  let pending: PendingApproval[] = [...state.pending];
  const requestText = requestTextOf(state.messages);
  const log = deps.logger.child({ thread_id: state.threadId });

  for (const call of lastAi(state).tool_calls ?? []) {
    const id = call.id!;
    if (READ_ONLY_TOOLS.has(call.name)) {
      const r = await deps.tools.call(call.name, call.args, callMeta(state));
      messages.push(toolOutcomeMessage(id, call.name, callOutcome(r)));
      continue;
    }
    if (call.name === WITHDRAW_TOOL) {
      const args = WithdrawArgsSchema.safeParse(call.args);
      const ids = args.success && args.data.approval_id ? [args.data.approval_id] : undefined;
      ledgerCalls++;
      const withdrawn = await deps.ledger.withdraw({
        threadId: state.threadId,
        approvalIds: ids,
        actor: state.customerId ? `customer:${state.customerId}` : 'customer:unlinked',
        reason: args.success ? args.data.reason : undefined,
      });
      pending = pending.filter((p) => !withdrawn.some((w) => w.id === p.approval_id));
      messages.push(
        toolOutcomeMessage(id, call.name, {
          kind: 'result',
          result: {
            status: withdrawn.length ? 'withdrawn' : 'nothing_to_withdraw',
            withdrawn: withdrawn.map((w) => ({ approval_id: w.id, tool: w.tool, args: w.args })),
          },
        }),
      );
      continue;
    }
    if (!isMutating(call.name)) {
      messages.push(
        toolOutcomeMessage(id, call.name, {
          kind: 'error',
          error: { code: 'unknown_tool', message: `There is no tool ${call.name}.` },
        }),
      );
      continue;
    }
    if (!state.customerId) {
      messages.push(
        toolOutcomeMessage(id, call.name, {
          kind: 'error',
          error: {
            code: 'not_linked',
            message:
              'This Slack account is not linked to a customer record; ' +
              'a manager must link it before anything can be changed.',
          },
        }),
      );
      continue;
    }
    const parsed = parseToolArgs(call.name, call.args);
    if (!parsed.ok) {
      messages.push(
        toolOutcomeMessage(id, call.name, {
          kind: 'error',
          error: { code: 'invalid_arguments', message: 'Invalid arguments.', details: { issues: parsed.issues } },
        }),
      );
      continue;
    }
    const same = pending.find((p) => p.tool === call.name && argsHash(p) === parsed.hash);
    if (same) {
      messages.push(
        toolOutcomeMessage(id, call.name, {
          kind: 'pending_approval',
          approval_id: same.approval_id,
          expires_at: same.expires_at,
          note: 'already waiting for a manager',
        }),
      );
      continue;
    }
    const rehearsal = await deps.tools.call(call.name, parsed.args, callMeta(state, { dry_run: true }));
    if (!rehearsal.ok) {
      messages.push(toolOutcomeMessage(id, call.name, { kind: 'error', error: rehearsal.error }));
      continue;
    }
    ledgerCalls++;
    const proposed = await deps.ledger.propose({
      threadId: state.threadId,
      toolCallId: id,
      tool: call.name,
      rawArgs: parsed.args,
      customerId: state.customerId,
      proposedBy: `customer:${state.customerId}`,
      requestText,
    });
    const { approval, superseded } = proposed;
    waiting = proposed.waiting;
    pending = pending.filter((p) => !superseded.some((s) => s.id === p.approval_id));
    if (approval.status === 'pending' && !pending.some((p) => p.approval_id === approval.id)) {
      pending.push({
        approval_id: approval.id,
        tool: approval.tool,
        args: approval.args,
        tool_call_id: id,
        expires_at: approval.expires_at.toISOString(),
      });
    }
    log.info(
      { approval_id: approval.id, tool: call.name, superseded: superseded.map((s) => s.id) },
      'proposed a write for approval',
    );
    messages.push(
      toolOutcomeMessage(id, call.name, {
        kind: 'pending_approval',
        approval_id: approval.id,
        expires_at: approval.expires_at.toISOString(),
        ...(superseded.length ? { replaces: superseded.map((s) => s.id) } : {}),
      }),
    );
  }
  return { update: { messages, pending }, waiting: ledgerCalls === 1 ? waiting : undefined };
}

function argsHash(p: PendingApproval): string | undefined {
  const r = parseToolArgs(p.tool, p.args);
  return r.ok ? r.hash : undefined;
}

/** After proposing: tell the customer it's pending, or let the model explain refusals first. */
export function routeAfterPropose(state: AgentStateType): 'respond' | 'plan' {
  const trailing = [];
  for (let i = state.messages.length - 1; i >= 0 && state.messages[i]!.getType() === 'tool'; i--)
    trailing.push(state.messages[i]!);
  return trailing.length && trailing.every(isPendingApproval) ? 'respond' : 'plan';
}
