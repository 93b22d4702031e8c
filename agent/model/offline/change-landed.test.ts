import type { BaseMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { planTurn, toAIMessage } from './planner.js';
import { customer, lookupFound, MARIA, makeContext, system, toolResult } from './testing.js';

/*
 * "Did my new number make it onto my account?" is answered from the record, and what the customer
 * says it should be decides what follows: the same value, a yes; another value given whole, the
 * change proposed; only its last digits, a question for the whole of it.
 */
const ctx = makeContext({ customer: MARIA });

function afterLookup(text: string, record: Record<string, unknown> = { ...MARIA }) {
  const window: BaseMessage[] = [system(ctx), customer(text)];
  const first = planTurn(window);
  expect(first.calls.map((c) => c.name)).toEqual(['lookup_customer']);
  const ai = toAIMessage(first, window, 'thread-test');
  const res = toolResult(ai.tool_calls![0]!.id!, 'lookup_customer', lookupFound([], record));
  return { window: [...window, ai, res], turn: planTurn([...window, ai, res]) };
}

describe('whether a change of theirs reached the record', () => {
  it('a number they give only the end of: what is on file, and a question for the whole new number', () => {
    const { window, turn } = afterLookup('did my new number ever make it onto my account? it ends in 9921');
    expect(turn.calls).toEqual([]);
    expect(turn.content).toContain('3344');
    expect(turn.content).toMatch(/What phone number should we have on your account\?/);
    const answer = planTurn([...window, toAIMessage(turn, window, 'thread-test'), customer('555-207-9921')]);
    expect(answer.calls.map((c) => c.name)).toEqual(['update_customer']);
    expect(answer.calls[0]!.args).toMatchObject({ changes: { phone: expect.stringMatching(/555\D*207\D*9921/) } });
  });

  it('the number on file is the one they mean: yes, nothing proposed', () => {
    const { turn } = afterLookup('did my new number go through? it ends in 3344');
    expect(turn.calls).toEqual([]);
    expect(turn.content).toMatch(/\byes\b/i);
    expect(turn.content).not.toMatch(/What phone number/);
  });

  it('an email they give whole that is not on file: the change proposed', () => {
    const { turn } = afterLookup('did the email change go thru? should be maria.g@fastmail.example.com now');
    expect(turn.content).toContain('maria.gonzalez@example.com');
    expect(turn.calls.map((c) => c.name)).toEqual(['update_customer']);
    expect(turn.calls[0]!.args).toMatchObject({
      customer_id: 'cus_001',
      changes: { email: 'maria.g@fastmail.example.com' },
    });
  });
});

describe('what a lookup answer says beside the record', () => {
  it('how we reach them, when they ask which contact details we have', () => {
    const { turn } = afterLookup('which email have u got for me? i never seem to get the reminder emails', {
      ...MARIA,
      preferences: { contact: 'sms' },
    });
    expect(turn.content).toContain('maria.gonzalez@example.com');
    expect(turn.content).toMatch(/text message/);
  });

  it('their recurring plan, when they ask about their bookings', () => {
    const { turn } = afterLookup('am i still on the weekly cleans or did that get switched to every 2 weeks?', {
      ...MARIA,
      preferences: { recurring: 'weekly' },
    });
    expect(turn.content).toMatch(/plan[^.]*weekly/);
  });
});
