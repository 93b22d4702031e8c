import type { AIMessage } from '@langchain/core/messages';
import type { AgentDeps } from '../deps.js';
import { callMeta } from '../deps.js';
import type { ToolCallOutcome } from '../tool-client.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { toolOutcomeMessage, type ToolOutcome } from '../tool-outcome.js';

export const lastAi = (state: AgentStateType) => state.messages[state.messages.length - 1] as AIMessage;

/** A tool server answer as an outcome: its result, or its refusal. */
export const callOutcome = (r: ToolCallOutcome): ToolOutcome =>
  r.ok ? { kind: 'result', result: r.result } : { kind: 'error', error: r.error };

/** Read-only calls run at once (no approval needed) and feed the next plan step. */
export const toolsNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType): Promise<AgentUpdate> => {
    const out = [];
    for (const call of lastAi(state).tool_calls ?? []) {
      const r = await deps.tools.call(call.name, call.args, callMeta(state));
      out.push(toolOutcomeMessage(call.id!, call.name, callOutcome(r)));
    }
    return { messages: out };
  };
