import { describe, expect, it } from 'vitest';
import { withoutRetracted } from './retraction.js';

describe('a request taken back in the same message', () => {
  it.each([
    ['change my email to ann@example.com — hmm wait no forget it, keep the old one', ''],
    ['pls book a deep clean for sat at 9... actually hold off, ill get back to u', 'ill get back to u'],
    ["cancel tomorrow's clean — oh wait no, the party's next week. keep it!! sorry, busy today", 'sorry, busy today'],
    ['can you move my visit to friday? never mind, my sister can let them in', 'my sister can let them in'],
  ])('%s → nothing asked any more', (message, rest) => {
    expect(withoutRetracted(message)).toEqual({ text: rest, retracted: true });
  });

  it.each([
    'book a clean friday at 10, actually no, make it saturday at 10',
    'forget it, book saturday instead',
    'book a tv mount tuesday at 1. no wait no, wednesday at 1',
    'please update my phone to 555-201-9999 and keep the old one as a backup',
    "never mind the email, just cancel friday's clean",
    "book the windows on friday at 10 - i'll leave it to you which crew",
    'keep it as it is please, what time is the cleaner coming?',
    'no problem at all, can you book the windows for friday at 10?',
  ])('%s → read whole (a correction, or nothing taken back)', (message) => {
    expect(withoutRetracted(message)).toEqual({ text: message, retracted: false });
  });
});
