import { describe, expect, it } from 'vitest';
import { changeCues } from './analysis/booking-change.js';
import { extractWhen } from './analysis/when.js';
import { afterLookup, callNames, NOW, plan, seedContext, TZ, seedArticles, TV_THURSDAY } from './testing.js';

// Failures of a blind set (evals/open/outsider-16-SCENARIOS.md), as classes: a fee or surcharge asked of a visit
// named whole (an answer, not an offer to book), "just checking, not booking yet", two services offered as
// either-or, "next tuesday" said on a Monday (two plausible days), a time said as "nine a m", the old number
// that "is not working" (the reason for a change, not a fault), "tuesday 15" (the 15th, a Tuesday), and "if you
// could cancel" (politeness, not a case).

const retrieved = seedArticles;
const writes = (t: { calls: { name: string }[] }) =>
  callNames(t).filter((n) => n !== 'lookup_customer' && n !== 'search_knowledge_base');

describe('a question about a visit named whole is answered, not turned into a booking offer', () => {
  it("a move fee asked of their own booking gets that booking's fee, after a lookup", () => {
    const t = afterLookup(
      seedContext(),
      'hey quick q before i decide anything - my tv mounting is thursday at 2pm, if i push it to later that same ' +
        'afternoon does that cost me something? my husband might not be back from work by 2',
      [TV_THURSDAY],
    );
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/free|no fee/i);
    expect(t.content).not.toMatch(/request TV Wall Mounting/i);
  });

  it('a weekend surcharge asked of a visit gets the help centre', () => {
    const ctx = seedContext({ retrieved: retrieved('kb-hours-and-availability-05', 'kb-pricing-01') });
    const t = plan(
      ctx,
      'Is a deep clean on Saturday the 12th at 9 more expensive because its the weekend? Trying to figure out the ' +
        'budget first',
    );
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/help article/i);
  });
});

describe('asking first', () => {
  it.each([
    'Anyone around wednesday the 16th at about 3pm for a handyman hour? just checking, not booking yet, waiting to ' +
      'hear back from my landlord',
  ])('no booking when they say they are not booking yet: %s', (text) => {
    expect(writes(plan(seedContext(), text))).toEqual([]);
  });

  it.each([
    'could someone do the TV thing or the shelves, whichever, saturday at 10',
    "I'm leaving my flat at the end of the month and the landlord wants it spotless. Not sure if I need the move-out " +
      'clean or a deep clean? Monday the 14th at 10 would be ideal.',
  ])('two services offered as either-or: asks which (%s)', (text) => {
    const t = plan(seedContext(), text);
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/\?/);
  });

  it('"next tuesday" on a Monday: tomorrow or the week after', () => {
    const t = plan(seedContext(), 'Could I get my windows done next tuesday at 10?');
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/Dec 8.*Dec 15/);
  });

  it('"next tues" from a Saturday is the coming one, and "next friday" on a Friday a week on', () => {
    expect(
      extractWhen('drywall patch next tues at 14:00', '2026-12-12T15:00:00.000Z', TZ).alternatives,
    ).toBeUndefined();
    expect(extractWhen('next friday 11am', '2026-12-11T14:00:00.000Z', TZ).date).toEqual({
      year: 2026,
      month: 12,
      day: 18,
    });
  });
});

describe('plainly asked', () => {
  it('book a deep clean for Thursday at nine a m', () => {
    expect(extractWhen('book a deep clean for Thursday at nine a m', NOW, TZ).time).toEqual({ hour: 9, minute: 0 });
  });

  it('the old number that is not working is the reason for the change, not a fault', () => {
    const t = plan(
      seedContext(),
      'please I want change my telephone for new one 555-201-7604, the old is not working more',
    );
    expect(writes(t)).toEqual(['update_customer']);
  });

  it('"tuesday 15" is the 15th, a Tuesday', () => {
    expect(extractWhen('to tuesday 15 same hour', NOW, TZ)).toMatchObject({
      date: { year: 2026, month: 12, day: 15 },
    });
    expect(extractWhen('to tuesday 15 same hour', NOW, TZ).time).toBeUndefined();
  });

  it('"I would be grateful if you could cancel …" cancels', () => {
    expect(
      changeCues(
        'Good morning. I would be grateful if you could cancel the ceiling fan installation scheduled for Friday 18 ' +
          'December, as we have decided to postpone the work until spring.',
      ),
    ).toMatchObject({ cancel: true });
  });
});

describe('a day past the booking window', () => {
  it.each([
    'can i already book a deep clean for january 4th at 10 or is that too far out?',
    'book me a deep clean for tues 22nd at 9am before the in-laws arrive',
  ])('says how far ahead we book, and tries no booking: %s', (text) => {
    const t = plan(seedContext(), text);
    expect(writes(t)).toEqual([]);
    expect(t.content).toMatch(/14 days ahead/);
    expect(t.content).toMatch(/Dec 21/);
  });
});

describe('open sets (outsider-10)', () => {
  it('"cant make my cleaning on the 14th anymore" is a change of that booking, asked about', () => {
    expect(changeCues('cant make my cleaning on the 14th anymore')).toMatchObject({ move: true });
  });

  it('"can my faucet repair wed be later in the day? like 3" gives the new hour', () => {
    expect(extractWhen('be later in the day? like 3', NOW, TZ).time).toEqual({ hour: 15, minute: 0 });
  });
});
