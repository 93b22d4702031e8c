import { describe, expect, it } from 'vitest';
import { plan, planMessage, seedContext, writeNames } from './testing.js';

const ctx = seedContext();

/** The turn after ours: the customer answers the question we asked for a value. */
function answered(first: string, second: string) {
  const asked = planMessage(ctx, first);
  expect(asked.tool_calls ?? []).toEqual([]);
  return plan(ctx, first, asked, second);
}

describe('a value given right after we asked for it', () => {
  it('the whole phone number after we said the one given was cut short', () => {
    const t = answered('new phone number is 555-619-44', 'sorry! 555-619-4426');
    expect(writeNames(t)).toEqual(['update_customer']);
    expect(t.calls[0]!.args).toMatchObject({ changes: { phone: '555-619-4426' } });
  });

  it('the channel after we asked how to reach them instead', () => {
    const t = answered('can you stop emailing me about appointments, i never check it', 'texts r fine');
    expect(writeNames(t)).toEqual(['update_customer']);
    expect(t.calls[0]!.args).toEqual({ customer_id: 'cus_001', changes: { preferences: { contact: 'sms' } } });
  });
});
