import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { AIMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { READ_ONLY_TOOLS } from '../schema/tools/catalog.js';
import type { AgentDeps } from './deps.js';
import { applyDecision, routeAfterDecision } from './nodes/apply-decision.js';
import { awaitDecisionNode } from './nodes/await-decision.js';
import { executeGrant, executeNode } from './nodes/execute.js';
import { ingestNode } from './nodes/ingest.js';
import { planNode } from './nodes/plan.js';
import { propose, routeAfterPropose } from './nodes/propose.js';
import { retrieveNode } from './nodes/retrieve.js';
import { respondNode } from './nodes/respond.js';
import { lastAi, toolsNode } from './nodes/tools.js';
import { AgentState, applyUpdate, combineUpdates, type AgentStateType, type AgentUpdate } from './state.js';

export const DEFAULT_MAX_STEPS = 6;

type Node = (state: AgentStateType, config?: RunnableConfig) => Promise<AgentUpdate>;

/**
 * `first`, then `second` on the state it left when `when` says so, as one graph step: one
 * checkpoint and one pass of LangGraph's machinery instead of two. Only for a `second` whose
 * repeat is harmless, since a run that dies inside the step repeats all of it.
 */
const then =
  (first: Node, second: Node, when: (s: AgentStateType) => boolean): Node =>
  async (state, config) => {
    const a = await first(state, config);
    const after = applyUpdate(state, a);
    return when(after) ? combineUpdates(a, await second(after, config)) : a;
  };

/**
 * `then(apply decision, execute)` with the approval handed over: the decision's read claimed an
 * approved grant, so executing it needs no second read of the ledger.
 */
const decideAndExecute =
  (deps: AgentDeps): Node =>
  async (state) => {
    const { update, approval } = await applyDecision(deps, state);
    const after = applyUpdate(state, update);
    if (routeAfterDecision(after) !== 'execute' || !approval) return update;
    return combineUpdates(update, await executeGrant(deps, after, approval));
  };

/**
 * `then(propose, respond)` with the pending list handed over: the proposal's statement read the
 * thread's pending approvals, so the reply that lists them needs no second read of the ledger.
 */
const proposeAndRespond =
  (deps: AgentDeps): Node =>
  async (state) => {
    const { update, waiting } = await propose(deps, state);
    const after = applyUpdate(state, update);
    if (routeAfterPropose(after) !== 'respond') return update;
    return combineUpdates(update, await respondNode(deps, { waiting })(after));
  };

/**
 * After a step that may have responded: its answer is in the window (no open call) and its reply
 * made, so wait or end. An answer without a reply is one the service put back (updateState as
 * `plan`) for a reply a dead run never made: respond makes it.
 */
const afterAnswer = (s: AgentStateType) => {
  const last = s.messages[s.messages.length - 1];
  if (!AIMessage.isInstance(last) || last.tool_calls?.length) return undefined;
  if (!s.replies.length) return 'respond' as const;
  return s.pending.length ? ('await_decision' as const) : END;
};

/**
 * ingest (+ help-centre search) → plan ⇄ tools (read-only)
 *                                 plan → propose (any write) → respond → await_decision (interrupt)
 * await_decision → ingest (customer wrote again) | apply_decision → execute → plan → respond
 *
 * Steps that follow one another unconditionally are one graph step each time (`then`): ingest
 * plans, a plan with nothing to call responds, a propose that only sent requests responds, an
 * approved decision executes. respond and execute stay nodes: runs checkpointed before them by an
 * earlier version resume there, and the service's recovery re-enters through them. respond and plan
 * only read, and execute is safe to repeat (the gate), so a step that dies part-way may rerun whole.
 *
 * Routing to the gate depends only on the tool catalog: any call that is not read-only goes through
 * `propose`, which records an approval instead of running it. Nothing the model says can change that.
 */
export function buildGraph(deps: AgentDeps, checkpointer: BaseCheckpointSaver) {
  const maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;

  const routeAfterPlan = (state: AgentStateType): 'respond' | 'tools' | 'propose' => {
    const calls = lastAi(state).tool_calls ?? [];
    if (!calls.length || state.steps > maxSteps) return 'respond';
    return calls.every((c) => READ_ONLY_TOOLS.has(c.name)) ? 'tools' : 'propose';
  };
  const respond = respondNode(deps);
  const plan = then(planNode(deps), respond, (s) => routeAfterPlan(s) === 'respond');
  // After a plan step: its calls to run, or its answer given.
  const routePlanned = (s: AgentStateType) => afterAnswer(s) ?? routeAfterPlan(s);
  const planned = ['tools', 'propose', 'await_decision', END, 'respond'] as const;

  return (
    new StateGraph(AgentState)
      .addNode(
        'ingest',
        then(ingestNode(deps), plan, () => true),
      )
      .addNode('plan', plan)
      .addNode('tools', toolsNode(deps))
      .addNode('propose', proposeAndRespond(deps))
      .addNode('respond', respond)
      .addNode('await_decision', awaitDecisionNode)
      .addNode('apply_decision', decideAndExecute(deps))
      .addNode('execute', executeNode(deps))
      // No edge leads here any more (ingest searches itself): kept so a thread whose run died between
      // ingest and retrieve before this version still resumes.
      .addNode('retrieve', retrieveNode(deps))
      .addEdge(START, 'ingest')
      // `retrieve` and `respond` are listed only so LangGraph accepts the nodes kept for old checkpoints.
      .addConditionalEdges('ingest', routePlanned, [...planned, 'retrieve' as const])
      .addEdge('retrieve', 'plan')
      .addConditionalEdges('plan', routePlanned, [...planned])
      .addEdge('tools', 'plan')
      .addConditionalEdges('propose', (s: AgentStateType) => afterAnswer(s) ?? 'plan', [
        'plan',
        'await_decision',
        END,
        'respond',
      ])
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
