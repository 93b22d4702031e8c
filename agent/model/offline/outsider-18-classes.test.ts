import { describe, expect, it } from 'vitest';
import { afterLookup, callNames, pendingBooking, plan, seedContext, TV_THURSDAY } from './testing.js';

// Failures of a blind set (evals/open/outsider-18-SCENARIOS.md), as classes: a problem told "purely hypothetical"
// or after "say …", a visit's time checked ("the drywall fella is thursday the 10th at 8, yeah?"), a way of
// contacting that "isn't working for me" (a preference to ask about, not a fault), a move fee asked with "pushed …
// back", and someone else's visit named by what they have with us ("my landlord … has a cleaning with you").

const writes = (t: { calls: { name: string }[] }) =>
  callNames(t).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base');
const ctx = seedContext();

describe('no write', () => {
  it.each([
    "purely hypothetical as I haven't booked yet: say your cleaner leaves the mirrors all streaky and I tell you the " +
      'same evening, how quickly would someone come back to sort it?',
    "if I pushed thursday's tv mounting back to the week after, would that cost anything?",
  ])('%s', (text) => {
    expect(writes(plan(ctx, text))).toEqual([]);
  });

  it('a move fee asked with "pushed … back" gets the fee of that booking, after a lookup', () => {
    const t = afterLookup(ctx, "if I pushed thursday's tv mounting back to the week after, would that cost anything?", [
      TV_THURSDAY,
    ]);
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/free/i);
  });

  it.each([
    'the drywall fella is thursday the 10th at 8, yeah? just want to be sure before I book the morning off',
    "I've written down that the wall repair is on the 16th at 9. that right?",
  ])("a visit's time checked looks it up: %s", (text) => {
    expect(callNames(plan(ctx, text))).toEqual(['lookup_customer']);
  });

  it.each([
    'my neighbour Priya (42 Beacon Rd) has your handyman coming wednesday and asked me to let him in. what time ' +
      'is he due?',
    "my landlord Samuel Adeyemi has a cleaning with you on the 18th. he's hopeless with slack so can you shift it to " +
      '9am for him?',
  ])("someone else's visit: %s", (text) => {
    const t = plan(ctx, text);
    expect(callNames(t)).toEqual([]);
  });
});

describe('asking first', () => {
  it("can you change how you get hold of me, the current way just isn't working for me", () => {
    const t = plan(ctx, "can you change how you get hold of me, the current way just isn't working for me");
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/email.*text.*phone|text.*email/i);
  });

  it('keeps a pending request when nothing is taken back', () => {
    expect(callNames(plan(seedContext({ pending: [pendingBooking()] }), 'thanks!'))).toEqual([]);
  });
});
