import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RunnableConfig } from '@langchain/core/runnables';
import { toModelSchema } from '../model/model-schema.js';
import type { AgentDeps } from '../deps.js';
import { loadCustomer, loadServices } from '../deps.js';
import {
  approvalEventOf,
  PLAN_CONTEXT_KEY,
  WITHDRAW_TOOL,
  WithdrawArgsSchema,
  type PlanContext,
} from '../plan-context.js';
import { PUBLIC_DATA_TOOLS } from '../../schema/tools/catalog.js';
import { textOf } from '../window.js';
import { systemPrompt } from '../prompts.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { z } from 'zod';

/**
 * The function declarations of one plan call. An unlinked user gets only the tools an anonymous
 * caller may use (the help centre): the gate refuses their writes anyway, so declaring them only
 * costs tokens. withdraw_request is declared only while a request is pending.
 */
export function toolSpecs(tools: readonly Tool[], opts: { withWithdraw: boolean; linked: boolean }) {
  const specs = tools
    .filter((t) => opts.linked || PUBLIC_DATA_TOOLS.has(t.name))
    .map((t) => ({
      type: 'function' as const,
      function: {
        name: t.name,
        description: t.description ?? '',
        parameters: toModelSchema(t.inputSchema as Record<string, unknown>),
      },
    }));
  if (opts.withWithdraw) {
    specs.push({
      type: 'function',
      function: {
        name: WITHDRAW_TOOL,
        description: 'Withdraw a pending request the customer no longer wants. Changes no business data.',
        parameters: toModelSchema(z.toJSONSchema(WithdrawArgsSchema, { target: 'draft-7' }) as Record<string, unknown>),
      },
    });
  }
  return specs;
}

export async function planContext(deps: AgentDeps, state: AgentStateType): Promise<PlanContext> {
  return {
    now: deps.clock.now().toISOString(),
    timeZone: deps.timeZone,
    customer: await loadCustomer(deps.pool, state.customerId),
    retrieved: state.retrieved,
    pending: state.pending,
    services: await loadServices(deps.pool),
    summary: state.summary,
  };
}

/** The model decides what to say or which tools to call; it never decides whether the gate applies. */
export const planNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType, config?: RunnableConfig): Promise<AgentUpdate> => {
    const ctx = await planContext(deps, state);
    const customerTexts = state.messages.filter((m) => HumanMessage.isInstance(m) && !approvalEventOf(m)).map(textOf);
    const system = new SystemMessage({
      content: systemPrompt(ctx, { customerTexts }),
      additional_kwargs: { [PLAN_CONTEXT_KEY]: ctx },
    });
    const specs = toolSpecs(await deps.tools.listTools(), {
      withWithdraw: state.pending.length > 0,
      linked: ctx.customer !== null,
    });
    const bound = deps.model.bindTools!(specs);
    const reply = (await bound.invoke([system, ...state.messages], config)) as AIMessage;
    const ai = new AIMessage({
      id: reply.id ?? randomUUID(),
      content: reply.content,
      // Kept as is: Gemini's thought signatures and the offline planner's notes live here.
      additional_kwargs: reply.additional_kwargs,
      tool_calls: (reply.tool_calls ?? []).map((c) => ({ ...c, id: c.id || randomUUID() })),
      response_metadata: reply.response_metadata,
      usage_metadata: reply.usage_metadata,
    });
    deps.logger.debug(
      {
        thread_id: state.threadId,
        tool_calls: ai.tool_calls?.map((c) => c.name),
        fallback: reply.response_metadata?.fallback === true,
      },
      'planned',
    );
    return { messages: [ai], steps: state.steps + 1 };
  };
