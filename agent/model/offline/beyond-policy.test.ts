import { describe, expect, it } from 'vitest';
import { answersBeyondPolicy } from './replies/beyond-policy.js';
import { feePolicyText } from './replies/booking-changes.js';
import { article, makeContext, plan, SEED_SERVICES } from './testing.js';

// A fee question is answered from the change policy, unless it adds a condition the policy's rule is silent
// on and a help-centre passage states the fee under that condition.

const APPROVAL =
  'Nothing changes until the request is approved, and you get a message either way. Timing rules use the moment ' +
  'you made the request, so a free cancellation requested more than 24 hours ahead stays free even if it is ' +
  'approved later.';
const ctx = makeContext({
  services: SEED_SERVICES,
  retrieved: [article('Why some changes need our team’s approval', APPROVAL)],
});
const cancelRule = feePolicyText('cancel');

describe('a condition the change policy does not speak to', () => {
  it.each([
    'I cancelled three days ahead but your team only approved it the day before, will I get hit with the late fee?',
    'i asked to cancel 4 days out but it wasnt approved til the morning before, do i still pay the late fee?',
  ])('the passage that states it answers: %s', (text) => {
    expect(answersBeyondPolicy(text, cancelRule, APPROVAL)).toBe(true);
    expect(plan(ctx, text).content).toContain('stays free even if it is approved later');
  });

  it.each([
    'what is the fee if i cancel the day before?',
    'do i pay anything if i cancel 2 days ahead?',
    'is there a charge for cancelling within 24 hours?',
  ])('the rule answers a plain fee question: %s', (text) => {
    expect(plan(ctx, text).content).toContain('free up to 24 hours before its start');
  });

  it('a passage that names the condition but no fee does not answer', () => {
    const text = 'my cancellation was approved late, do i pay a fee?';
    expect(answersBeyondPolicy(text, cancelRule, 'Requests are approved by our team within an hour.')).toBe(false);
    expect(answersBeyondPolicy(text, cancelRule, APPROVAL)).toBe(true);
  });
});
