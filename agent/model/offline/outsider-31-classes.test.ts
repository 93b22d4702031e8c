import { describe, expect, it } from 'vitest';
import { extractWhen } from './analysis/when.js';
import { afterOurQuestion, NOW, plan, planMessage, seedContext, TZ, writeNames } from './testing.js';

const ctx = seedContext();

const answered = (first: string, second: string) => afterOurQuestion(ctx, first, second);

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

describe('a question beside a visit is not a booking', () => {
  it('"q tho for the tap repair on the 21st, does he bring the washers": "does he" asks', () => {
    const t = plan(
      ctx,
      'i already showed the plumber last time how to lift the side gate so thats sorted. q tho for the tap repair on ' +
        'the 21st, does he bring the washers n stuff or do i need to buy them beforehand',
    );
    expect(t.calls).toEqual([]);
    expect(t.content).not.toMatch(/book Faucet Repair|what time/i);
  });

  it('"we adopted a kitten on saturday … anyway — if i want a clean and … could that be the same visit?"', () => {
    const t = plan(
      ctx,
      'omg we adopted a kitten on saturday, absolute chaos 🐱 anyway — if i want a standard clean and someone to fix ' +
        'a wobbly door handle could that be the same visit?',
    );
    expect(t.calls).toEqual([]);
    expect(t.content).not.toMatch(/book Standard Home Cleaning/);
  });

  it('the day something of theirs happened is no day for a visit; the day a visit was booked still is', () => {
    expect(extractWhen('we adopted a kitten on saturday', NOW, TZ).date).toBeUndefined();
    expect(extractWhen('i booked a clean on saturday', NOW, TZ).date).toEqual({ year: 2026, month: 12, day: 12 });
  });
});

describe('a problem told as settled', () => {
  it('"the complaint i phoned in … got sorted, someone came back n redid it … can i pay w apple pay"', () => {
    const t = plan(
      ctx,
      'hey just to say the complaint i phoned in abt the upstairs bathroom being missed got sorted, someone came ' +
        'back n redid it, all good 👍 random q tho can i pay w apple pay going forward',
    );
    expect(writeNames(t)).toEqual([]);
  });

  it('"… got fixed but its leaking again": still a report', () => {
    const t = plan(ctx, 'the tap you fixed last week got fixed but its leaking again all over the floor, pls help');
    expect(writeNames(t)).toEqual(['create_ticket']);
  });
});

describe('a day after a verb in the present', () => {
  it('"i need a deep clen on friday at 9": "need" is no past tense', () => {
    expect(extractWhen('i need a deep clen on friday at 9', NOW, TZ).date).toEqual({ year: 2026, month: 12, day: 11 });
  });
});
