import { interrupt } from '@langchain/langgraph';
import type { AgentStateType, AgentUpdate, ResumeValue } from '../state.js';

/**
 * The only node that pauses. LangGraph re-runs a node from its start on resume, so this one does
 * nothing but `interrupt()`; everything with side effects happens in other nodes. The thread
 * waits here (in Postgres) for a manager's decision or the customer's next message.
 */
export const awaitDecisionNode = async (state: AgentStateType): Promise<AgentUpdate> => {
  const resume = interrupt<{ pending: string[] }, ResumeValue>({ pending: state.pending.map((p) => p.approval_id) });
  if (resume.kind === 'message') return { incoming: resume.text, incomingId: resume.id ?? null, deciding: null };
  return { deciding: resume.approvalId, incoming: null, replies: null, steps: 0 };
};
