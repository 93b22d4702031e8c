import { describe, expect, it } from 'vitest';
import { article, plan, seedContext } from './testing.js';

/* An email request carries what its own part asks for; a service named elsewhere only says why. */

const prep = article(
  'Getting ready for a repair or installation',
  'Clear about 3 feet of space around the area where we will work. Make sure our technician can reach your ' +
    'electrical panel and the water shut-off valve.',
);
const prices = article(
  'Repair and handyman prices',
  'Faucet Repair is $145 for a dripping or leaking faucet. Drywall Patch Repair is $165 and covers up to 3 holes.',
);
// About email itself: the words that ask for an email must not make it the topic.
const privacy = article(
  'Your privacy and personal information',
  'We never share your information with advertisers. Staff can see your name, email address and phone number.',
);
const ctx = seedContext({ retrieved: [prep, privacy, prices] });
const emailOf = (text: string) => plan(ctx, text).calls.find((c) => c.name === 'send_email')?.args;

describe('an email request naming a topic, beside a service named as the reason', () => {
  it.each([
    'can u email me the what-to-do-before-a-repair stuff? my husband will be home for the drywall guy and he ' +
      'never reads slack',
    'could you email me how to get ready for a repair? the faucet repair is thursday and my wife will let him in',
    'could you email me what i should do to get ready for a repair? it is for the drywall patch next week',
  ])('%s', (text) => {
    const e = emailOf(text);
    expect(e?.subject).toContain('Getting ready for a repair');
    expect(String(e?.body)).toContain('3 feet');
  });

  it('a service named in the part asking for the email still gets its own details', () => {
    const e = emailOf('can you email me the drywall patch price and what it covers?');
    expect(String(e?.subject)).toContain('Drywall Patch Repair');
    expect(String(e?.body)).toContain('$165');
  });

  it('an email naming no topic, beside a service, is about the service', () => {
    const e = emailOf('the drywall patch sounds good. can you email me the details?');
    expect(String(e?.subject)).toContain('Drywall Patch Repair');
  });
});
