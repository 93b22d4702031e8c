import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { READ_ONLY_TOOLS } from '../schema/tools/catalog.js';
import type { AgentDeps } from './deps.js';
import { applyDecisionNode, routeAfterDecision } from './nodes/apply-decision.js';
import { awaitDecisionNode } from './nodes/await-decision.js';
import { executeNode } from './nodes/execute.js';
import { ingestNode } from './nodes/ingest.js';
import { planNode } from './nodes/plan.js';
import { proposeNode, routeAfterPropose } from './nodes/propose.js';
import { retrieveNode } from './nodes/retrieve.js';
import { respondNode } from './nodes/respond.js';
import { lastAi, toolsNode } from './nodes/tools.js';
import { AgentState, type AgentStateType } from './state.js';

export const DEFAULT_MAX_STEPS = 6;

/**
 * ingest (+ help-centre search) → plan ⇄ tools (read-only)
 *                                 plan → propose (any write) → respond → await_decision (interrupt)
 * await_decision → ingest (customer wrote again) | apply_decision → execute → plan → respond
 *
 * Routing to the gate depends only on the tool catalog: any call that is not read-only goes through
 * `propose`, which records an approval instead of running it. Nothing the model says can change that.
 */
export function buildGraph(deps: AgentDeps, checkpointer: BaseCheckpointSaver) {
  const maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;

  const routeAfterPlan = (state: AgentStateType) => {
    const calls = lastAi(state).tool_calls ?? [];
    if (!calls.length || state.steps > maxSteps) return 'respond';
    return calls.every((c) => READ_ONLY_TOOLS.has(c.name)) ? 'tools' : 'propose';
  };

  return (
    new StateGraph(AgentState)
      .addNode('ingest', ingestNode(deps))
      .addNode('plan', planNode(deps))
      .addNode('tools', toolsNode(deps))
      .addNode('propose', proposeNode(deps))
      .addNode('respond', respondNode(deps))
      .addNode('await_decision', awaitDecisionNode)
      .addNode('apply_decision', applyDecisionNode(deps))
      .addNode('execute', executeNode(deps))
      // No edge leads here any more (ingest searches itself): kept so a thread whose run died between
      // ingest and retrieve before this version still resumes.
      .addNode('retrieve', retrieveNode(deps))
      .addEdge(START, 'ingest')
      // Always plan; `retrieve` is listed only so LangGraph accepts the node kept for old checkpoints.
      .addConditionalEdges('ingest', () => 'plan', ['plan', 'retrieve'])
      .addEdge('retrieve', 'plan')
      .addConditionalEdges('plan', routeAfterPlan, ['respond', 'tools', 'propose'])
      .addEdge('tools', 'plan')
      .addConditionalEdges('propose', routeAfterPropose, ['respond', 'plan'])
      .addConditionalEdges('respond', (s: AgentStateType) => (s.pending.length ? 'await_decision' : END), [
        'await_decision',
        END,
      ])
      .addConditionalEdges(
        'await_decision',
        (s: AgentStateType) => (typeof s.incoming === 'string' ? 'ingest' : 'apply_decision'),
        ['ingest', 'apply_decision'],
      )
      .addConditionalEdges('apply_decision', routeAfterDecision, ['execute', 'plan', 'await_decision', END])
      .addEdge('execute', 'plan')
      .compile({ checkpointer })
  );
}

export type AgentGraph = ReturnType<typeof buildGraph>;
