import { describe, expect, it } from 'vitest';
import { completedEmail } from './analysis/entities.js';
import { expandShorthand } from './analysis/shorthand.js';
import { plan, planMessage, seedContext, writeNames } from './testing.js';

// A value we said was incomplete, completed by the next message ("… .com on the end", "sry meant gmail.com"), and the
// words a request turns on typed with letters swapped ("cna you chnage my emial").

const ctx = seedContext();

describe('an email address completed after we asked', () => {
  it.each([
    ['switch my email over to james.whitaker@gmail pls', 'ugh sorry, .com on the end', 'james.whitaker@gmail.com'],
    ['cna you chnage my emial to chloemartin92@gmial', 'sry meant gmail.com', 'chloemartin92@gmail.com'],
    ['change my email to ana.lee@yahoo', 'its @yahoo.com', 'ana.lee@yahoo.com'],
    // the whole address again, beside a phone change already sent
    [
      'new phone + email for my acct: 555 209 4417 and priya.p@fastmail',
      'sorry, priya.p@fastmail.example.com',
      'priya.p@fastmail.example.com',
    ],
  ])('%s / %s', (first, second, email) => {
    const asked = planMessage(ctx, first);
    expect(asked.content).toMatch(/doesn't look like a complete email address/);
    const t = plan(ctx, first, asked, second);
    expect(writeNames(t)).toEqual(['update_customer']);
    expect(t.calls.find((c) => c.name === 'update_customer')!.args).toMatchObject({ changes: { email } });
  });

  it('a message that is more than the ending is no completion', () => {
    expect(completedEmail('ana@yahoo', 'whats your phone number?')).toBeUndefined();
    expect(completedEmail('ana@yahoo', 'ok thanks. i will check with my husband and come back')).toBeUndefined();
    expect(completedEmail('ana@yahoo', 'ana@yahoo.com')).toBeUndefined();
  });
});

describe('swapped letters in the words of a request', () => {
  it('are spelled out, but never inside an address', () => {
    expect(expandShorthand('cna you chnage my emial')).toBe('can you change my email');
    expect(expandShorthand('my address is emial@example.com')).toBe('my address is emial@example.com');
    expect(expandShorthand('my son Emil is home')).toBe('my son Emil is home');
  });
});
