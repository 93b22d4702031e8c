import type { AgentDeps } from '../deps.js';
import { callMeta } from '../deps.js';
import type { PlanContext } from '../plan-context.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { lastCustomerText } from '../window.js';

/**
 * Search the help centre for the newest customer message, before the model says anything. Run by
 * the ingest node (one graph step, one checkpoint, for both); a read-only call, safe to repeat.
 */
export async function retrieveFor(
  deps: AgentDeps,
  state: Pick<AgentStateType, 'messages' | 'threadId' | 'customerId'>,
): Promise<PlanContext['retrieved']> {
  const query = lastCustomerText(state.messages).trim().slice(0, 500);
  if (!query) return [];
  const out = await deps.tools.call('search_knowledge_base', { query, limit: 5 }, callMeta(state));
  if (!out.ok) {
    deps.logger.warn({ thread_id: state.threadId, error: out.error }, 'knowledge-base search failed');
    return [];
  }
  return (out.result.results as PlanContext['retrieved']) ?? [];
}

/** The former retrieve step as a node, for runs checkpointed before ingest took it over (see graph.ts). */
export const retrieveNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType): Promise<AgentUpdate> => ({ retrieved: await retrieveFor(deps, state) });
