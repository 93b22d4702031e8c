import { randomUUID } from 'node:crypto';
import { ToolMessage, type AIMessage } from '@langchain/core/messages';
import type { AgentDeps } from '../deps.js';
import { callMeta } from '../deps.js';
import type { AgentStateType, AgentUpdate } from '../state.js';

export const lastAi = (state: AgentStateType) => state.messages[state.messages.length - 1] as AIMessage;

export function toolResultMessage(callId: string, name: string, body: unknown, isError = false): ToolMessage {
  return new ToolMessage({ id: randomUUID(), content: JSON.stringify(body), tool_call_id: callId, name, status: isError ? 'error' : 'success' });
}

/** Read-only calls run at once (no approval needed) and feed the next plan step. */
export const toolsNode = (deps: AgentDeps) => async (state: AgentStateType): Promise<AgentUpdate> => {
  const out = [];
  for (const call of lastAi(state).tool_calls ?? []) {
    const r = await deps.tools.call(call.name, call.args, callMeta(state));
    out.push(toolResultMessage(call.id!, call.name, r.ok ? r.result : { error: r.error }, !r.ok));
  }
  return { messages: out };
};
