import { randomUUID } from 'node:crypto';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
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
import { BOOKING_CHANGE_TOOLS, getTool, PUBLIC_DATA_TOOLS } from '../../schema/tools/catalog.js';
import { textOf } from '../window.js';
import { needsChangeRules, systemPrompt } from '../prompts.js';
import type { AgentStateType, AgentUpdate } from '../state.js';
import { z } from 'zod';

/** The conversation's customer: the plan step fills it in, so the model is not asked for it. */
const CUSTOMER_FIELD = 'customer_id';

/**
 * The function declarations of one plan call. An unlinked user gets only the tools an anonymous
 * caller may use (the help centre): the gate refuses their writes anyway, so declaring them only
 * costs tokens. The tools that move and cancel bookings are declared only in turns about changes
 * (`bookingChanges`, read as the system prompt reads it). A linked customer's calls get
 * `customer_id` from the plan step (`withCustomer`), and no tool declares the fields its catalog
 * entry keeps from the model. withdraw_request is declared only while a request is pending.
 */
export function toolSpecs(
  tools: readonly Tool[],
  opts: { withWithdraw: boolean; linked: boolean; bookingChanges?: boolean },
) {
  const specs = tools
    .filter((t) => opts.linked || PUBLIC_DATA_TOOLS.has(t.name))
    .filter((t) => opts.bookingChanges !== false || !BOOKING_CHANGE_TOOLS.has(t.name))
    .map((t) => ({
      type: 'function' as const,
      function: {
        name: t.name,
        description: t.description ?? '',
        parameters: toModelSchema(t.inputSchema as Record<string, unknown>, {
          omit: [...(opts.linked ? [CUSTOMER_FIELD] : []), ...(getTool(t.name)?.modelOmits ?? [])],
        }),
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
    customer:
      deps.turnCustomers?.get(state.threadId, state.customerId) ?? (await loadCustomer(deps.pool, state.customerId)),
    retrieved: state.retrieved,
    pending: state.pending,
    services: await loadServices(deps.pool),
    summary: state.summary,
  };
}

/**
 * What one plan call sends: the system message (the prompt for a real model, the PlanContext for
 * the offline planner) before the window, and the function declarations. The node and the prompt
 * measurements (scripts/bench) build it here, so what is measured is what is sent.
 */
export function planInput(
  ctx: PlanContext,
  window: readonly BaseMessage[],
  tools: readonly Tool[],
  opts: { prompt?: boolean } = {},
) {
  const customerTexts = window.filter((m) => HumanMessage.isInstance(m) && !approvalEventOf(m)).map(textOf);
  const newestInput = [...window].reverse().find((m) => HumanMessage.isInstance(m));
  const afterDecision = Boolean(newestInput && approvalEventOf(newestInput));
  const system = new SystemMessage({
    content: opts.prompt === false ? '' : systemPrompt(ctx, { customerTexts, afterDecision }),
    additional_kwargs: { [PLAN_CONTEXT_KEY]: ctx },
  });
  const specs = toolSpecs(tools, {
    withWithdraw: ctx.pending.length > 0,
    linked: ctx.customer !== null,
    bookingChanges: needsChangeRules(ctx, customerTexts),
  });
  return { messages: [system, ...window], specs };
}

/**
 * A tool call with the conversation's customer filled in, for every tool whose input names one
 * and a call that gives none. An id the model gave anyway is kept, not rewritten: a call for
 * someone else must stay that, so the gate refuses it (out_of_scope) instead of a request for
 * another customer silently becoming one for this customer.
 */
export function withCustomer<C extends { name: string; args: Record<string, unknown> }>(
  call: C,
  customerId: string | undefined,
): C {
  const input = getTool(call.name)?.input;
  if (!customerId || !input || !(CUSTOMER_FIELD in input.shape) || call.args[CUSTOMER_FIELD] !== undefined) return call;
  return { ...call, args: { ...call.args, [CUSTOMER_FIELD]: customerId } };
}

/** The model decides what to say or which tools to call; it never decides whether the gate applies. */
export const planNode =
  (deps: AgentDeps) =>
  async (state: AgentStateType, config?: RunnableConfig): Promise<AgentUpdate> => {
    const ctx = await planContext(deps, state);
    // A model that plans from the PlanContext (the offline planner) is not sent the prompt text.
    const prompt = !(deps.model as { readsPlanContext?: boolean }).readsPlanContext;
    const { messages, specs } = planInput(ctx, state.messages, await deps.tools.listTools(), { prompt });
    const bound = deps.model.bindTools!(specs);
    const reply = (await bound.invoke(messages, config)) as AIMessage;
    const customerId = ctx.customer?.id;
    const ai = new AIMessage({
      id: reply.id ?? randomUUID(),
      content: reply.content,
      // Kept as is: Gemini's thought signatures and the offline planner's notes live here.
      additional_kwargs: reply.additional_kwargs,
      tool_calls: (reply.tool_calls ?? []).map((c) => withCustomer({ ...c, id: c.id || randomUUID() }, customerId)),
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
