import type { AgentDeps } from '../deps.js';
import { callMeta } from '../deps.js';
import type { PlanContext } from '../plan-context.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { lastCustomerText } from '../window.js';

/** Always search the help centre for the newest message, before the model says anything. */
export const retrieveNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType): Promise<AgentUpdate> => {
    const query = lastCustomerText(state.messages).trim().slice(0, 500);
    if (!query) return { retrieved: [] };
    const out = await deps.tools.call('search_knowledge_base', { query, limit: 5 }, callMeta(state));
    if (!out.ok) {
      deps.logger.warn({ thread_id: state.threadId, error: out.error }, 'knowledge-base search failed');
      return { retrieved: [] };
    }
    return { retrieved: (out.result.results as PlanContext['retrieved']) ?? [] };
  };
