import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { type AgentStateType, applyUpdate, combineUpdates } from './state.js';

const base = (over: Partial<AgentStateType> = {}): AgentStateType => ({
  threadId: 't',
  customerId: null,
  incoming: null,
  incomingId: null,
  messages: [new HumanMessage({ id: 'h0', content: 'old' }), new AIMessage({ id: 'a0', content: 'old answer' })],
  summary: '',
  retrieved: [],
  pending: [],
  steps: 3,
  replies: [{ text: 'earlier', personal: false }],
  deciding: null,
  ...over,
});

describe('two nodes as one step', () => {
  it('reaches the state the two steps reached, a trim and a reset included', () => {
    const state = base();
    const first = {
      messages: { drop: ['h0'], append: [new HumanMessage({ id: 'h1', content: 'new' })] },
      replies: null,
      steps: 0,
    };
    const second = {
      messages: [new AIMessage({ id: 'a1', content: 'hi' })],
      replies: [{ text: 'hi', personal: false }],
    };
    const twoSteps = applyUpdate(applyUpdate(state, first), second);
    const oneStep = applyUpdate(state, combineUpdates(first, second));
    expect(oneStep.messages.map((m) => m.id)).toEqual(['a0', 'h1', 'a1']);
    expect(oneStep.messages.map((m) => m.id)).toEqual(twoSteps.messages.map((m) => m.id));
    // Not the earlier reply plus this one: the first step reset them.
    expect(oneStep.replies).toEqual([{ text: 'hi', personal: false }]);
    expect(oneStep.replies).toEqual(twoSteps.replies);
    expect(oneStep.steps).toBe(0);
  });

  it('keeps what neither step reset, and refuses a trim that is not first', () => {
    const state = base();
    const one = combineUpdates(
      { replies: [{ text: 'a', personal: true }] },
      { replies: [{ text: 'b', personal: false }] },
    );
    expect(applyUpdate(state, one).replies.map((r) => r.text)).toEqual(['earlier', 'a', 'b']);
    expect(() => combineUpdates({ messages: [] }, { messages: { drop: ['h0'], append: [] } })).toThrow(/first/);
  });
});
