import { describe, expect, it } from 'vitest';
import { makeContext, plan } from './testing.js';

// Two retrieved articles: one on charges in general (it wins on "charged"), one on the circumstance.
const charges = {
  id: 'kb-charges',
  title: 'Questions about a charge',
  topic: 'payment-and-refunds',
  snippet:
    'The most common reasons a charge differs from the listed price are extra rooms, travel and late cancellation ' +
    'fees. If you think you were charged wrongly, tell us within 60 days.',
  score: 0.9,
};
const ill = {
  id: 'kb-ill',
  title: 'Changing a visit because someone is ill',
  topic: 'cancellation-and-rescheduling',
  snippet:
    'If anyone in your home has a fever, flu or a stomach bug, please tell us. ' +
    'Let us know at least 2 hours before the start time and we will waive the late cancellation fee.',
  score: 0.8,
};

describe('a fee question that hangs on a circumstance ("if someone wakes up with the flu")', () => {
  it('gives the change policy and the help centre passage on that circumstance', () => {
    const t = plan(
      makeContext({ retrieved: [charges, ill] }),
      'if someone in the house wakes up with the flu on the day, do we still get charged for cancelling?',
    );
    expect(t.calls).toEqual([]);
    expect(t.content).toMatch(/free up to 24 hours/);
    expect(t.content).toContain('Changing a visit because someone is ill');
    expect(t.content).toContain('2 hours before');
    expect(t.content).not.toContain('Questions about a charge');
  });

  it('gives the policy alone when the question names no circumstance', () => {
    const t = plan(makeContext({ retrieved: [charges, ill] }), 'do you charge for cancelling?');
    expect(t.content).toMatch(/free up to 24 hours/);
    expect(t.content).not.toContain('help article');
  });
});
