import { describe, expect, it } from 'vitest';
import { extractWhen } from './analysis/when.js';
import { NOW, plan, planMessage, seedContext, TZ, writeNames } from './testing.js';

const ctx = seedContext();

/** Our turn on `first`, then theirs: the planner's turn on `second`. */
function answered(first: string, second: string) {
  const asked = planMessage(ctx, first);
  expect(asked.tool_calls ?? []).toEqual([]);
  return plan(ctx, first, asked, second);
}

describe('a request taken back', () => {
  it('"… pls — hmm actually nvm my brother says hell do it on sat": "actually nvm" with its reason after it', () => {
    const t = plan(
      ctx,
      'book me a handyman hour thurs at 10 to hang some frames pls — hmm actually nvm my brother says hell do it on ' +
        'sat. ty tho',
    );
    expect(writeNames(t)).toEqual([]);
  });
});

describe('the day meant', () => {
  it('"the 15th, not tmrw": a day said after "not" is not the day', () => {
    expect(extractWhen('the 15th, not tmrw lol', NOW, TZ).date).toEqual({ year: 2026, month: 12, day: 15 });
    const t = answered('can u book a standard clean for next tuesday at 9 pls', 'the 15th, not tmrw lol');
    expect(t.calls[0]?.args).toMatchObject({ start_time: '2026-12-15T09:00:00-05:00' });
  });
});

describe('a visit asked for in its everyday words', () => {
  it('"bought a ceiling fan … could u fit it sometime next week?": asks the day, then books', () => {
    const first = 'bought a ceiling fan for the spare room, could u fit it sometime next week?';
    expect(plan(ctx, first).content).toMatch(/which day/i);
    const t = answered(first, 'thurs 17th at 1pm works');
    expect(t.calls[0]).toMatchObject({
      name: 'book_slot',
      args: { service_id: 'svc_ceiling_fan_install', start_time: '2026-12-17T13:00:00-05:00' },
    });
  });

  it('"hang a big heavy mirror in the hall": the handyman, whatever is said of the mirror', () => {
    const t = answered(
      'need someone to hang a big heavy mirror in the hall thursday the 15th at 1 pls',
      'tuesday the 15th sorry, wrong day',
    );
    expect(t.calls[0]).toMatchObject({
      name: 'book_slot',
      args: { service_id: 'svc_handyman_hour', start_time: '2026-12-15T13:00:00-05:00' },
    });
  });
});

describe('the only number given is the old one', () => {
  it('"update my phone to the one im messaging from, the … was my old work line": asks for the number', () => {
    const t = plan(ctx, 'pls update my phone to the one im messaging from, the 555 201 9876 was my old work line');
    expect(writeNames(t)).toEqual([]);
    expect(t.content).toMatch(/can't see the number you're messaging from[\s\S]*\?/);
  });
});
