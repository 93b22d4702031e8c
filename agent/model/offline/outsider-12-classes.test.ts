import { describe, expect, it } from 'vitest';
import { changeCues, splitChange } from './analysis/booking-change.js';
import { extractWhen } from './analysis/when.js';
import { isInformationQuestion } from './analysis/cues.js';
import { crewInstruction, extractPhones } from './analysis/entities.js';
import { NOW, plan, seedContext, TZ } from './testing.js';

// Failures of a blind set, as classes: a change of a booking said without "reschedule" or "cancel" ("wont need
// the tv mounting on thursday", "call off …", "could the handyman come … instead", "can it be 11 instead of 9",
// "fri 18th -> thurs 17th"), and clock hours said in words ("at nine", "two in the afternoon").

const ctx = { now: NOW, timeZone: TZ };

describe('a change of a booking said in everyday words', () => {
  it.each([
    'wont need the tv mounting on thursday after all, we returned the tv lol',
    'we have to call off the tv mounting on the 16th, the wall is being redone',
  ])('cancels: %s', (text) => {
    expect(changeCues(text)).toMatchObject({ cancel: true, move: false });
  });

  it.each([
    'something came up wednesday, could the handyman come fri 11th at 11 instead',
    'the fan install on saturday - can it be 11 instead of 9? same day',
    'my window cleaning on monday 14th, could we do it at 9 in the morning instead?',
    'fan install fri 18th -> can we make it thurs 17th, 2pm?',
  ])('moves: %s', (text) => {
    expect(changeCues(text)).toMatchObject({ move: true, cancel: false });
  });

  it('"instead of texting" is no new time', () => {
    expect(changeCues('the cleaning on thursday was great, can you email me instead of texting').move).toBe(false);
  });

  it('the new time is what comes before "instead of", or after the arrow', () => {
    expect(splitChange('the fan install on saturday - can it be 11 instead of 9?', ctx).target).toBe('can it be 11 ');
    expect(splitChange('fan install fri 18th -> can we make it thurs 17th, 2pm?', ctx)).toEqual({
      which: 'fan install fri 18th',
      target: 'can we make it thurs 17th, 2pm?',
    });
  });
});

describe('clock hours in words', () => {
  it.each([
    ['could you patch them up wed the 9th at two in the afternoon', 14],
    ['standard clean thursday the 17th at nine pls', 9],
    ['can it be 11 instead of 9?', 11],
  ])('%s', (text, hour) => {
    expect(extractWhen(text, NOW, TZ).time).toEqual({ hour, minute: 0 });
  });

  it.each(['a table for two', 'i have two kids', 'at one of your visits'])('no hour in "%s"', (text) => {
    expect(extractWhen(text, NOW, TZ).time).toBeUndefined();
  });
});

describe('record changes said as statements', () => {
  const ctx2 = seedContext();
  const update = (text: string) => plan(ctx2, text).calls.find((c) => c.name === 'update_customer')?.args.changes;

  it.each([
    ['ive switched to texts, way easier than email for me these days', { preferences: { contact: 'sms' } }],
    [
      "number's +1 (555) 201-3120 now, old one's gone. text me on it",
      { phone: '+1 (555) 201-3120', preferences: { contact: 'sms' } },
    ],
    [
      'my phone changed to 555 201 7999 and i can only do afternoons now',
      { phone: '555 201 7999', preferences: { preferred_time: 'afternoons' } },
    ],
  ])('%s', (text, changes) => {
    expect(update(text)).toEqual(changes);
  });

  it('"note for the crew: …" is the note', () => {
    expect(crewInstruction('pls note for the crew: park in bay 14, the visitor lot is closed')).toBe(
      'Park in bay 14, the visitor lot is closed',
    );
  });
});

describe('a question typed as its topic', () => {
  it.each(['latest start time for a standard clean on a sat?', 'price of a deep clean?'])('"%s" asks', (text) => {
    expect(isInformationQuestion(text)).toBe(true);
  });

  it('"latest start time for a standard clean on a sat?" from an unlinked user is answered, not refused', () => {
    const t = plan(seedContext({ customer: null }), 'latest start time for a standard clean on a sat?');
    expect(t.content).not.toMatch(/isn't linked/);
  });
});

describe('a whole visit asked for politely, a number corrected in the same breath', () => {
  it('"is it possible to do a move out clean on mon 14th at 10?" proposes the booking', () => {
    const t = plan(seedContext(), 'is it possible to do a move out clean on mon 14th at 10?');
    expect(t.calls.map((c) => c.name)).toEqual(['book_slot']);
  });

  it.each([
    ['pls use 555 201 8841 for calls... sorry typo, 8814', ['555 201 8814']],
    ['555 201 8841, oops i meant 8814!', ['555 201 8814']],
    ['new number 555-201-4471, sorry about the 2024 mixup', ['555-201-4471']],
  ])('%s', (text, phones) => {
    expect(extractPhones(text)).toEqual(phones);
  });
});
