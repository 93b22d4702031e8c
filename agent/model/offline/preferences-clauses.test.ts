import { describe, expect, it } from 'vitest';
import { extractPreferences } from './analysis/entities.js';
import { extractNoteRequest } from './intents/contact-change.js';

describe('standing preferences said beside other values', () => {
  it('reads the channel in its own clause, past an email address or a number elsewhere', () => {
    expect(
      extractPreferences('email changed to a@b.example, and just email me from now on instead of texting').contact,
    ).toBe('email');
    expect(extractPreferences('new one 555.447.2210. oh and call rather than text from now on pls').contact).toBe(
      'phone',
    );
    expect(
      extractPreferences('new email pls - x@y.example. also email me instead of texting from now on').contact,
    ).toBe('email');
  });
  it('reads a switch "from X to Y" and "X is fine, no need to ring me"', () => {
    expect(extractPreferences('pls switch me from texts to email, same address you already have').contact).toBe(
      'email',
    );
    expect(extractPreferences('texts are fine now, no need to ring me').contact).toBe('sms');
  });
  it('still leaves a channel alone when the clause only gives an address', () => {
    expect(extractPreferences('email me at a@b.example instead').contact).toBeUndefined();
  });
  it('reads a time of day that "suits me better"', () => {
    expect(extractPreferences('also afternoons suit me better now').preferred_time).toBe('afternoons');
  });
  it('reads eco products given up after being named', () => {
    expect(extractPreferences("the eco products just don't cut it so go back to normal ones").eco_products).toBe(false);
    expect(extractPreferences('actually im fine with eco products now').eco_products).toBe(true);
  });
});

describe('a count of pets said as "up to"', () => {
  it('reads "we\'re up to three cats now"', () => {
    expect(extractPreferences("we're up to three cats now (new kitten)").pets).toMatch(/three cats/);
  });
});

describe('a note pointed back to ("put that on my file")', () => {
  it('takes the words said just before as the note', () => {
    expect(
      extractNoteRequest(
        "heads up the dog crate's in the garage now, not the laundry room - can you put that on my file.",
      ),
    ).toBe("The dog crate's in the garage now, not the laundry room");
  });
});

describe('what stays as it was', () => {
  it('"switch my email to my work one" changes the address, not the channel', () => {
    expect(extractPreferences('can you switch my email to my work one').contact).toBeUndefined();
    expect(extractPreferences('switch my contact to email rather than sms').contact).toBe('email');
  });
  it('a preference pointed back to is not a note', () => {
    expect(extractNoteRequest('we just adopted two cats, please note that on my account')).toBeUndefined();
    expect(extractNoteRequest('we just adopted two cats - can you put that on my file')).toBeUndefined();
  });
});
