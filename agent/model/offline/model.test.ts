import { type AIMessage, HumanMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { describe, expect, it } from 'vitest';
// The product imports LangGraph, which turns on async-local run configs; so does this test.
import '@langchain/langgraph';
import { FALLBACK_METADATA, isFallbackReply, WITHDRAW_TOOL } from '../../plan-context.js';
import { OfflinePlanner, toolNameOf } from './model.js';
import { makeContext, pendingBooking, system } from './testing.js';

const spec = (name: string) => ({
  type: 'function' as const,
  function: { name, description: name, parameters: { type: 'object', properties: {} } },
});
const ALL = [
  'search_knowledge_base',
  'lookup_customer',
  'create_ticket',
  'update_customer',
  'send_email',
  'book_slot',
].map(spec);

describe('OfflinePlanner (BaseChatModel)', () => {
  it('is the offline-planner and binds tools like a real chat model', async () => {
    const model = new OfflinePlanner();
    expect(model._llmType()).toBe('offline-planner');
    const reply = (await model
      .bindTools(ALL)
      .invoke([system(makeContext()), new HumanMessage('book a deep clean Tuesday at 10')])) as AIMessage;
    expect(reply.tool_calls).toHaveLength(1);
    expect(reply.tool_calls![0]).toMatchObject({
      name: 'book_slot',
      args: { start_time: '2026-12-08T10:00:00-05:00' },
    });
    expect(reply.response_metadata).toMatchObject(FALLBACK_METADATA);
    expect(isFallbackReply(reply)).toBe(true);
  });

  it('plain answers carry the fallback metadata too', async () => {
    const reply = (await new OfflinePlanner().invoke([system(makeContext()), new HumanMessage('hello')])) as AIMessage;
    expect(reply.tool_calls ?? []).toEqual([]);
    expect(String(reply.content)).toMatch(/Hi Maria/);
    expect(reply.response_metadata).toMatchObject(FALLBACK_METADATA);
  });

  it(
    'derives tool-call ids from the thread in the run config: ' + 'same thread → same ids, other thread → other ids',
    async () => {
      const bound = new OfflinePlanner().bindTools(ALL);
      const input = () => [
        system(makeContext()),
        new HumanMessage('book me a deep clean Tuesday at 10 and email me the confirmation'),
      ];
      // The graph's plan node passes its config (thread in `configurable`) to invoke.
      const inThread = async (threadId: string) =>
        (await bound.invoke(input(), { configurable: { thread_id: threadId } })) as AIMessage;
      const a1 = await inThread('T1');
      const a2 = await inThread('T1');
      const b = await inThread('T2');
      expect(a1.tool_calls!.map((c) => c.id)).toEqual(a2.tool_calls!.map((c) => c.id));
      expect(a1.tool_calls!.map((c) => c.id)).not.toEqual(b.tool_calls!.map((c) => c.id));
      expect(new Set(a1.tool_calls!.map((c) => c.id)).size).toBe(2);
      // Nested inside another runnable (config only in async-local storage) it still finds the thread.
      const nested = await RunnableLambda.from(async (_: unknown) => (await bound.invoke(input())) as AIMessage).invoke(
        null,
        { configurable: { thread_id: 'T1' } },
      );
      expect(nested.tool_calls!.map((c) => c.id)).toEqual(a1.tool_calls!.map((c) => c.id));
    },
  );

  it('does not call tools that were not bound (withdraw_request is always allowed)', async () => {
    const readOnly = new OfflinePlanner().bindTools([spec('search_knowledge_base'), spec('lookup_customer')]);
    const reply = (await readOnly.invoke([
      system(makeContext()),
      new HumanMessage('book a deep clean Tuesday at 10'),
    ])) as AIMessage;
    expect(reply.tool_calls ?? []).toEqual([]);
    expect(String(reply.content)).toMatch(/team will need to help/);

    const withdraw = (await readOnly.invoke([
      system(makeContext({ pending: [pendingBooking()] })),
      new HumanMessage('never mind'),
    ])) as AIMessage;
    expect(withdraw.tool_calls?.map((c) => c.name)).toEqual([WITHDRAW_TOOL]);
  });

  it('reads tool names from every bindTools shape', () => {
    expect(toolNameOf(spec('book_slot'))).toBe('book_slot');
    expect(toolNameOf({ name: 'lookup_customer', description: '', schema: {} })).toBe('lookup_customer');
    expect(toolNameOf({} as never)).toBeUndefined();
  });
});
