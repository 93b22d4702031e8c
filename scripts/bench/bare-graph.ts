/**
 * The yardstick: the least a LangGraph app of the product's shape does. A customer's message is
 * planned into one write, the run stops at interrupt() until a manager decides, and a resume with
 * Command({ resume }) runs one INSERT. PostgresSaver with its default serializer, node-postgres,
 * nothing else: no ledger, no tool server, no retrieval, no Slack.
 */
import { Annotation, Command, END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { Pool } from '../../core/pg-pool.js';

export const BARE_TABLE = 'bench_bare_writes';

const BareState = Annotation.Root({
  customer: Annotation<string>(),
  message: Annotation<string>(),
  messages: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  proposal: Annotation<{ tool: string; args: Record<string, unknown> } | null>(),
  result: Annotation<string | null>(),
});
type S = typeof BareState.State;

export async function setupBare(pool: Pool): Promise<void> {
  await new PostgresSaver(pool).setup();
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${BARE_TABLE} (id bigserial PRIMARY KEY, thread_id text NOT NULL,
       customer text NOT NULL, args jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  );
}

export function buildBareGraph(pool: Pool) {
  const plan = (s: S) => {
    const phone = /(\d{3}-\d{3}-\d{4})/.exec(s.message)?.[1];
    return {
      messages: [`customer: ${s.message}`],
      proposal: phone ? { tool: 'update_contact', args: { customer_id: s.customer, phone } } : null,
      result: null,
    };
  };
  const approve = () => {
    const decision = interrupt({ question: 'approve?' }) as { approved: boolean };
    return { result: decision.approved ? 'approved' : 'rejected' };
  };
  const execute = async (s: S, config?: { configurable?: { thread_id?: string } }) => {
    await pool.query(`INSERT INTO ${BARE_TABLE} (thread_id, customer, args) VALUES ($1, $2, $3)`, [
      config?.configurable?.thread_id ?? '',
      s.customer,
      JSON.stringify(s.proposal!.args),
    ]);
    return { result: 'executed', messages: [`assistant: done (${s.proposal!.tool})`] };
  };
  return new StateGraph(BareState)
    .addNode('plan', plan)
    .addNode('approve', approve)
    .addNode('execute', execute)
    .addEdge(START, 'plan')
    .addConditionalEdges('plan', (s: S) => (s.proposal ? 'approve' : END), ['approve', END])
    .addConditionalEdges('approve', (s: S) => (s.result === 'approved' ? 'execute' : END), ['execute', END])
    .addEdge('execute', END)
    .compile({ checkpointer: new PostgresSaver(pool) });
}

// Typed loosely: the graph's node names are not part of what a resume says.
export const resumeApproved = () => new Command({ resume: { approved: true } }) as Command<unknown, never, never>;
