import { describe, expect, it } from 'vitest';
import { NOW, TZ } from '../testing.js';
import { changeCues, splitChange } from './booking-change.js';

const ctx = { now: NOW, timeZone: TZ };

describe('a booking named by its service or its day, then changed', () => {
  it('"the <service> on <day> … cancel it" cancels that booking', () => {
    expect(changeCues("we won't be needing the window cleaning on the 14th after all. please cancel it").cancel).toBe(
      true,
    );
    // Nothing named: "cancel it" alone is left to the conversation.
    expect(changeCues('please cancel it').cancel).toBe(false);
  });

  it('"tomorrow morning\'s cleaning" is a booking of theirs, possessive or not', () => {
    expect(changeCues('can you cancel tomorrow mornings cleaning?').cancel).toBe(true);
    expect(changeCues("cancel friday afternoon's visit please").cancel).toBe(true);
  });

  it('"that <service> thing on <day> - can the guy do <day> instead" moves it', () => {
    expect(changeCues('that wall patching thing on thursday - can the guy do friday instead?').move).toBe(true);
    expect(changeCues('my deep clean, could we do it instead on the 15th').move).toBe(true);
  });

  it('"instead" without a booking of theirs, or "instead of" something else, moves nothing', () => {
    expect(changeCues('could i get a cleaning on friday instead?').move).toBe(false);
    expect(changeCues("i'd like to book a friday cleaning, or monday instead").move).toBe(false);
    expect(changeCues("friday's cleaning - could you do monday instead?").move).toBe(true);
    expect(changeCues('the cleaning on thursday was great, can you email me instead of texting').move).toBe(false);
  });

  it('splits the clause naming the booking from the one asking for the new time', () => {
    expect(splitChange('that wall patching thing on thursday - can the guy do friday instead?', ctx)).toEqual({
      which: 'that wall patching thing on thursday - ',
      target: 'can the guy do friday instead?',
    });
    // A single clause is all new time, as before.
    expect(splitChange('make it 3pm instead', ctx)).toEqual({ which: '', target: 'make it 3pm instead' });
  });
});

describe('the booking as the subject of the move', () => {
  it.each([
    'can the faucet repair move from wed to friday the 11th at noon?',
    'could my repair shift to thursday at 2pm',
    'can the visit move back to the 15th at 9',
    'can our cleaning go to friday at 10',
  ])('%s moves a booking they have', (text) => expect(changeCues(text).move).toBe(true));

  it('a booking asked for is not a move', () => {
    expect(changeCues('can i book a move-out clean for friday').move).toBe(false);
    expect(changeCues('will the cleaning go ahead if it snows?').move).toBe(false);
  });
});
