import { describe, expect, it } from 'vitest';
import { extractPreferences } from './analysis/entities.js';

const channel = (text: string) => extractPreferences(text).contact;

describe('the contact channel asked for in a clause of its own', () => {
  it.each([
    ["i'd prefer texts", 'sms'],
    ['please use email from now on', 'email'],
    ['can you reach me by phone instead', 'phone'],
    ['i hardly read my texts, can it come by email?', 'email'],
    ['the best way to reach me is a text', 'sms'],
    ['my email is a@b.example and i prefer texts', 'sms'],
    ['email changed to a@b.example, and just email me from now on instead of texting', 'email'],
    // the channels in the past tense: the one wanted, then the one given up
    ["Going forward I'd rather you rang me than emailed about visits", 'phone'],
    ["i'd rather you texted me than called", 'sms'],
    ["honestly i'd prefer you phoned me instead of texted", 'phone'],
  ])('%s → %s', (text, wanted) => {
    expect(channel(text)).toBe(wanted);
  });
});

describe('the contact channel named as a choice across the message', () => {
  it.each([
    ['can you move me over to email', 'email'],
    ['change it to texts please', 'sms'],
    ['swap me over to phone calls', 'phone'],
    ['text me, not email', 'sms'],
    ['call me, rather than texting', 'phone'],
    ['new number 555 201 8890, text me, not email', 'sms'],
    ['texts work best for me', 'sms'],
    ['reach us through email', 'email'],
    ['pls switch me from texts to email, same address you already have', 'email'],
    ['texts are fine now, no need to ring me', 'sms'],
    ['ring me instead of emailing', 'phone'],
  ])('%s → %s', (text, wanted) => {
    expect(channel(text)).toBe(wanted);
  });
});

describe('no channel preference', () => {
  it.each([
    "i'll just call the office instead",
    'i can text you later',
    'can you switch my email to my work one',
    'email me at a@b.example instead',
  ])('%s', (text) => {
    expect(channel(text)).toBeUndefined();
  });
});
