import { describe, expect, it } from 'vitest';
import { crewInstruction } from './analysis/entities.js';
import {
  afterLookup,
  callNames as callNamesOf,
  plan,
  seedContext,
  TV_THURSDAY,
  upcoming,
  writeNames,
} from './testing.js';

/*
 * Writes proposed where the customer's words leave a value open or ask for nothing: classes from the open sets'
 * false actions (a proposal on a turn that should have asked, or only answered).
 */
const ctx = seedContext();
const WINDOWS_SAT_19 = upcoming('BKG-1018', 'svc_window_clean', '2026-12-19T11:00:00-05:00');

describe('a value the message leaves open is asked for, not guessed', () => {
  it('"change my email to aisha rahman@example.org": an address with a space in it is not cut to its last part', () => {
    const t = plan(ctx, 'please change my email to aisha rahman@example.org');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/\?/);
    expect(JSON.stringify(t.calls)).not.toContain('"rahman@example.org"');
  });

  it('"my email is now tom.b@example.net": the words before an address are not part of it', () => {
    const t = plan(ctx, "my number changed, it's 555 010 9988 now, and my email is now tom.b@example.net");
    expect(JSON.stringify(t.calls)).toContain('"tom.b@example.net"');
  });

  it('"monday the 21st instead, sometime in the afternoon": the visit’s old morning start is not kept', () => {
    const t = afterLookup(ctx, 'could the window people come monday the 21st instead, sometime in the afternoon', [
      WINDOWS_SAT_19,
    ]);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/what time|which time|start/i);
  });

  it('"at 10am … see you at 2 on Thursday": two times for the one visit ask which', () => {
    const t = plan(
      ctx,
      'Hello, I would like to book a handyman hour on Thursday 17th at 10am to hang two mirrors and a curtain rail. ' +
        'Thank you, see you at 2 on Thursday!',
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/10:00 AM|10 ?am/i);
    expect(t.content).toMatch(/2:00 PM|2 ?pm/i);
  });
});

describe('what the customer already has is not a request to change it', () => {
  it('"i know u use the green stuff at mine which i love … will the plant based products …": no write', () => {
    const t = plan(
      ctx,
      'i know u use the green stuff at mine which i love, but my oven is honestly disgusting rn and im thinking deep ' +
        'clean. will the plant based products mean it takes forever or costs extra',
    );
    expect(writeNames(t)).toEqual([]);
  });
});

describe('two services for one visit', () => {
  it('"deep clean + windows in one go on sat the 12th at 10?": both kept; six hours do not fit a Saturday', () => {
    const t = plan(ctx, 'deep clean + windows in one go on sat the 12th at 10?');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toContain('Deep Cleaning');
    expect(t.content).toContain('Interior Window Cleaning');
    expect(t.content).toMatch(/would not finish by closing time/);
  });

  it('"a deep clean and the window cleaning on tue the 15th at 9": both named, back to back offered', () => {
    const t = plan(ctx, 'can i book a deep clean and the window cleaning on tue the 15th at 9?');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/Deep Cleaning at 9:00 AM and Interior Window Cleaning at 1:00 PM/);
  });

  it('"a deep clean or the window cleaning": a choice is still asked as one', () => {
    const t = plan(ctx, 'can i book a deep clean or the window cleaning on tue the 15th at 9?');
    expect(t.content).toMatch(/which service/i);
  });
});

describe('a weekday for a visit more than a week away', () => {
  const TV_WED_16 = upcoming('BKG-1014', 'svc_tv_mount', '2026-12-16T14:00:00-05:00');

  it('"can the tv mounting (wed 16th) be thursday instead?": the coming Thursday or the one after the visit', () => {
    const t = afterLookup(ctx, 'can the tv mounting be thursday instead?', [TV_WED_16]);
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toContain('Thu, Dec 10');
    expect(t.content).toContain('Thu, Dec 17');
  });

  it('"move the tv mounting to this friday": a weekday pinned to a week is not asked about', () => {
    const t = afterLookup(ctx, 'can we move the tv mounting to this friday?', [TV_WED_16]);
    expect(writeNames(t)).toEqual(['reschedule_booking']);
  });

  it('"move my drywall patch to sunday at 10am": a closed day is not asked about, its refusal offers open days', () => {
    const t = afterLookup(ctx, 'move my tv mounting to sunday at 10am', [TV_WED_16]);
    expect(t.content).not.toMatch(/which Sunday/);
  });

  it('a visit this week: "move it to friday" has one reading', () => {
    const t = afterLookup(ctx, 'can you move my tv mounting to friday', [TV_THURSDAY]);
    expect(writeNames(t)).toEqual(['reschedule_booking']);
  });
});

describe('what the customer will ask someone else to do', () => {
  const CLEAN_MON_14 = upcoming('BKG-1009', 'svc_standard_clean', '2026-12-14T08:00:00-05:00');

  it('"I\'m going to ask him to move the plumbers": no booking moved, no note for the crew', () => {
    const t = afterLookup(
      ctx,
      "landlord being dramatic as usual. NOT cancelling anything yet, I'm going to ask him to move the plumbers. but " +
        'honestly do your cleaners even need running water?',
      [CLEAN_MON_14],
    );
    expect(writeNames(t)).toEqual([]);
    expect(t.content).not.toMatch(/moved to\?/);
  });

  it('an instruction for the crew is still one; the customer’s own telling is not', () => {
    expect(crewInstruction('oh and doorbell is broken so tell them to knock')).toContain('tell them to knock');
    expect(crewInstruction("I'm going to ask him to move the plumbers")).toBeUndefined();
    expect(crewInstruction("i'll tell her to leave the key under the mat")).toBeUndefined();
  });
});

describe('a request whose value is still to come is asked about, not answered from an article', () => {
  it('"can you get someone round next week for the dripping tap": the day and time are asked', () => {
    const t = plan(ctx, 'can you get someone round next week for the dripping tap in the en suite');
    expect(t.content).toMatch(/Faucet Repair/);
    expect(t.content).toMatch(/which day next week/i);
  });

  it('"can the cleaning crew come sometime early next week": which cleaning and when are asked', () => {
    const t = plan(ctx, 'can the cleaning crew come sometime early next week');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/which service/i);
  });
});

describe('a booked day that no longer suits', () => {
  const SAT_12 = upcoming('BKG-1008', 'svc_standard_clean', '2026-12-12T09:00:00-05:00');

  it.each([["I'm afraid Saturday no longer suits us."], ['cant do the 12th anymore 😩 work trip came up']])(
    '"%s": moving it or cancelling it is asked',
    (text) => {
      const t = afterLookup(ctx, text, [SAT_12]);
      expect(writeNames(t)).toEqual([]);
      expect(t.content).toMatch(/moved to\?/);
      expect(t.content).toMatch(/cancel it/);
    },
  );

  it('"can we move saturday’s cleaning": a move asked for outright does not offer to cancel', () => {
    const t = afterLookup(ctx, "can we move saturday's cleaning", [SAT_12]);
    expect(t.content).not.toMatch(/cancel it/);
  });
});
