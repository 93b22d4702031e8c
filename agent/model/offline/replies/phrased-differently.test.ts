import { describe, expect, it } from 'vitest';
import { article as hit, seedContext } from '../testing.js';
import { answerFromKb } from './knowledge.js';

/* Questions the help centre words differently: "last minute", "unscented", "how long can it be paused". */
const ask = (question: string, retrieved: ReturnType<typeof hit>[]) =>
  answerFromKb(question, seedContext({ retrieved }));

describe('answerFromKb: words the articles phrase differently', () => {
  const cancel = hit(
    'Cancellation policy and fees',
    'You can cancel a visit free of charge up to 24 hours before its booked start time. If you cancel within 24 ' +
      'hours of the start time, a late cancellation fee of 50% of the service price applies.',
    4.3,
  );
  const fees = hit(
    'Extra fees and surcharges at a glance',
    'Extra handyman time: $45 per additional 30 minutes. Late changes: moving a visit within 24 hours of its start ' +
      'time costs a flat $25, and cancelling within 24 hours costs 50% of the service price.',
    3.5,
  );
  for (const q of [
    "how much is it if i cancel a visit last minute? not saying i will, just want to know what i'm signing up for",
    'what do you charge if i cancel at the last minute?',
    'is there a fee for cancelling a visit last minute?',
  ])
    it(`"last minute" is no minute of a clock: ${q}`, () => {
      const a = ask(q, [cancel, fees]);
      expect(a?.articleId).toBe(cancel.id);
      expect(a?.text).toContain('50%');
    });

  const pause = hit(
    'Pausing or ending a recurring cleaning plan',
    'Pausing is useful for holidays, renovations or a new baby. You can pause a plan for up to 8 weeks.',
    8.8,
  );
  for (const q of [
    'how long can the weekly clean be paused for before it gets cancelled?',
    'how long can i put my weekly cleaning on pause?',
    'for how long could we pause the weekly clean?',
  ])
    it(`a length of time about the plan, not the visit's own: ${q}`, () => {
      const a = ask(q, [pause]);
      expect(a?.text).toContain('8 weeks');
      expect(a?.text).not.toContain('takes about');
    });

  it("still gives the visit's own length when the quote states no length of time", () => {
    const plan = hit('Recurring plans', 'A recurring plan books Standard Home Cleaning on a fixed schedule.', 5);
    expect(ask('how long does a standard home cleaning take?', [plan])?.text).toContain('takes about 3 hours');
  });
});
