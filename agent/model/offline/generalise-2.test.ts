import { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { feeQuestionOf } from './analysis/booking-change.js';
import { complainsAboutVisit, extractAddress, reportsProblem } from './analysis/entities.js';
import { expandShorthand } from './analysis/shorthand.js';
import { extractWhen } from './analysis/when.js';
import { OFFLINE_META_KEY } from './conversation.js';
import { planTurn } from './planner.js';
import { feePolicyText } from './replies/booking-changes.js';
import { customer, makeContext, plan, system, NOW, TZ } from './testing.js';
import type { PlanContext } from '../../plan-context.js';

// Issue 11's second round of failure classes (evals/golden/generalise-2.json), one mechanism each.

const at = (iso: string) => new Date(iso).toISOString();
const names = (t: { calls: { name: string }[] }) => t.calls.map((c) => c.name);

/** Plan the next turn after `first` was planned and answered as planned (its meta kept, as the graph does). */
function twoTurns(ctx: PlanContext, first: string, second: string) {
  const one = plan(ctx, first);
  const ai = new AIMessage({
    content: one.content,
    additional_kwargs: one.meta ? { [OFFLINE_META_KEY]: one.meta } : {},
  });
  return { one, two: planTurn([system(ctx), customer(first), ai, customer(second)]) };
}

describe('parts of the day: a point the calendar defines is proposed, a range is asked about', () => {
  it('keeps the day chrono drops after "late morning on"', () => {
    const w = extractWhen('late morning on thursday for a standard clean', NOW, TZ);
    expect(w.date).toEqual({ year: 2026, month: 12, day: 10 });
    expect(w.time).toBeUndefined();
    expect(w.part).toMatchObject({ kind: 'range', from: 10, to: 11 });
  });
  it('asks with the starts of that day inside the range', () => {
    const t = plan(makeContext(), 'late morning on thursday for a standard clean if poss');
    expect(t.calls).toEqual([]);
    expect(t.content).toContain('10:00 AM or 11:00 AM');
    expect(plan(makeContext(), 'sometime after lunch friday?? need a handyman for an hour').content).toContain(
      '1:00 PM or 2:00 PM',
    );
    // A 90-minute repair holds two crew-hours: its last start ends by closing, as the booking tool requires.
    expect(plan(makeContext(), 'faucet repair wednesday, end of the day ideally').content).toMatch(
      /3:00 PM or 4:00 PM/,
    );
    expect(plan(makeContext(), 'handyman wednesday, end of the day ideally').content).toMatch(/4:00 PM or 5:00 PM/);
  });
  it('gives the latest start when the range is after closing, and a yes books it', () => {
    const { one, two } = twoTurns(makeContext(), 'could the cleaners do tuesday evening? deep clean', 'yes please');
    expect(one.calls).toEqual([]);
    // A 4-hour deep clean started at 5 PM would run past closing: its latest start is the one offered.
    expect(one.content).toContain('latest start on Tue, Dec 8 is 2:00 PM');
    expect(names(two)).toEqual(['book_slot']);
    expect(at(two.calls[0]!.args.start_time as string)).toBe(at('2026-12-08T14:00:00-05:00'));
  });
  it('"first thing saturday morning" is Saturday\'s own first start', () => {
    const t = plan(makeContext(), 'first thing saturday morning for a deep clean pls');
    expect(at(t.calls[0]!.args.start_time as string)).toBe(at('2026-12-12T09:00:00-05:00'));
  });
});

describe('closed days and hours come from the calendar: nothing is proposed, the nearest open day is', () => {
  it('reads holidays by the names the calendar gives them', () => {
    const christmas = extractWhen('any chance of a handyman on christmas day, like 10am', '2026-12-18T15:00:00Z', TZ);
    expect(christmas.date).toEqual({ year: 2026, month: 12, day: 25 });
    expect(extractWhen('standard clean new years day at 10am', '2026-12-21T15:00:00Z', TZ).date).toEqual({
      year: 2027,
      month: 1,
      day: 1,
    });
  });
  it('a Sunday lists the nearest open days, and naming one books it', () => {
    const { one, two } = twoTurns(makeContext(), 'can someone do a deep clean this sunday at 10', 'monday pls');
    expect(one.calls).toEqual([]);
    expect(one.content).toMatch(/closed on Sundays/);
    expect(one.content).toContain('Mon, Dec 14, 10:00 AM');
    expect(one.content).toContain('Sat, Dec 12, 10:00 AM');
    expect(names(two)).toEqual(['book_slot']);
    expect(at(two.calls[0]!.args.start_time as string)).toBe(at('2026-12-14T10:00:00-05:00'));
  });
  it('a holiday is closed by name', () => {
    const t = plan(makeContext({ now: '2026-12-18T15:00:00Z' }), 'handyman on christmas at 10am please');
    expect(t.calls).toEqual([]);
    expect(t.content).toContain('closed on Christmas Day (Fri, Dec 25)');
  });
  it("a start after that day's last one is not proposed; the last start is offered", () => {
    const { one, two } = twoTurns(makeContext(), 'saturday 4pm for a handyman hour', 'yes');
    expect(one.calls).toEqual([]);
    expect(one.content).toContain('Would 1:00 PM work');
    expect(at(two.calls[0]!.args.start_time as string)).toBe(at('2026-12-12T13:00:00-05:00'));
    const eve = plan(makeContext({ now: '2026-12-18T15:00:00Z' }), 'deep clean on the 24th at 3pm pls');
    expect(eve.calls).toEqual([]);
    expect(eve.content).toContain('between 8:00 AM and 1:00 PM');
  });
});

describe("a weekday said on that weekday: today can't be booked, so which one is asked", () => {
  it('asks about next Monday on a Monday, whether or not the hour has passed, and a yes books it', () => {
    for (const text of ['can you come monday to do the windows? 10am', 'book a window cleaning monday at 8am']) {
      const t = plan(makeContext(), text);
      expect(t.calls).toEqual([]);
      expect(t.content).toContain('Mon, Dec 14');
    }
    const { two } = twoTurns(makeContext(), 'can you come monday to do the windows? 10am', 'yes');
    expect(at(two.calls[0]!.args.start_time as string)).toBe(at('2026-12-14T10:00:00-05:00'));
  });
  it('"next friday" on a Friday is a week on; weekday abbreviations chrono lacks are read', () => {
    const fri = makeContext({ now: '2026-12-11T14:00:00Z' });
    expect(at(plan(fri, 'next friday 11am faucet repair pls').calls[0]!.args.start_time as string)).toBe(
      at('2026-12-18T11:00:00-05:00'),
    );
    expect(plan(fri, 'this friday at 2pm for a handyman hour?').calls).toEqual([]);
    expect(extractWhen('anyone free tues 3pm', NOW, TZ).date).toEqual({ year: 2026, month: 12, day: 8 });
    expect(extractWhen('weds at 10am', NOW, TZ).date).toEqual({ year: 2026, month: 12, day: 9 });
  });
});

describe('addresses: units in every spelling, and the new value, never the old one', () => {
  const address = (text: string) => {
    const r = extractAddress(text);
    return r?.ok ? r.address : r;
  };
  it('reads the value after "to" in "from <old> to <new>"', () => {
    expect(
      address(
        'please update my address from 75 Cedar Hill Road Apt 1A to 80 Cedar Hill Road Apt 3, Maple Harbor MH 1036',
      ),
    ).toEqual({ line1: '80 Cedar Hill Road', unit: 'Apt 3', city: 'Maple Harbor', postal_code: 'MH 1036' });
  });
  it('reads "moved!!" and "new place is", and stops at the postal code', () => {
    expect(
      address('moved!! 8 Elm St, Unit 2B, Fernbrook MH 2105. (old one was 9 Keepers Way, Maple Harbor MH 1024)'),
    ).toEqual({ line1: '8 Elm St', unit: 'Unit 2B', city: 'Fernbrook', postal_code: 'MH 2105' });
    expect(address('hi, new place is 52 Mill Street #4, Maple Harbor MH 1048 as of this week')).toEqual({
      line1: '52 Mill Street',
      unit: '#4',
      city: 'Maple Harbor',
      postal_code: 'MH 1048',
    });
  });
  it('skips an address said to be the old one', () => {
    expect(
      address('my old address is 5 Brook Lane, Fernbrook MH 2105, new one is 31 Quarry Rd, Quarry Falls MH 3150'),
    ).toMatchObject({ line1: '31 Quarry Rd', postal_code: 'MH 3150' });
  });
});

describe('fees: a question is answered from the change policy, a request states the fee', () => {
  it('tells fee questions from requests', () => {
    expect(feeQuestionOf('what does it cost to cancel the day before?')).toBe('cancel');
    expect(feeQuestionOf('is there a fee if I move my booking')).toBe('reschedule');
    expect(feeQuestionOf('please cancel my cleaning on the 14th')).toBeUndefined();
    // "Move-out" names the service, not a change of the booking.
    expect(feeQuestionOf('need a move-out clean, do i have to pay anything upfront?')).toBeUndefined();
    expect(feeQuestionOf('what does moving out cleaning cost?')).toBeUndefined();
    expect(feePolicyText('cancel')).toMatch(/free up to 24 hours.*50% of the price/);
  });
  it('answers without withdrawing or writing anything', () => {
    const t = plan(makeContext(), 'what does it cost to cancel the day before?');
    expect(t.calls).toEqual([]);
    expect(t.content).toContain('50%');
    expect(t.content).not.toMatch(/withdraw/i);
  });
  it('spells out chat shorthand, so "tmrw\'s cleaning" is a cancellation of tomorrow\'s booking', () => {
    expect(expandShorthand("need to cancel tmrw's cleaning")).toBe("need to cancel tomorrow's cleaning");
    const t = plan(makeContext(), "need to cancel tmrw's cleaning sorry, what do i owe you for that");
    expect(names(t)).toEqual(['lookup_customer']);
    expect(t.meta?.change).toMatchObject({ kind: 'cancel' });
  });
});

describe('complaints about a past visit are problems (a ticket), not booking requests', () => {
  it('reads work not done at a visit of ours', () => {
    for (const text of [
      'the cleaner last friday left streaks all over the mirrors and didnt empty the bins',
      "the handyman who came last week didnt finish hanging the curtains, said he'd come back but nobody has",
      'deep clean yesterday was a joke, the oven wasnt even touched',
    ]) {
      expect(complainsAboutVisit(text), text).toBe(true);
      expect(names(plan(makeContext(), text)), text).toEqual(['create_ticket']);
    }
  });
  it('leaves questions and praise alone', () => {
    expect(reportsProblem('can the cleaner bring their own vacuum?')).toBe(false);
    expect(complainsAboutVisit('the handyman who came did a great job, can i book him again friday at 10')).toBe(false);
  });
});
