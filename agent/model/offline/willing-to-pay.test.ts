import { describe, expect, it } from 'vitest';
import { article, plan, seedContext } from './testing.js';

// "ill pay whatever" says the customer will pay, it asks no price: the answer is the help centre's, with no price
// of the service put before it (which would quote the catalogue's article beside the one that answers).

const sameDay = article(
  'Same-day service',
  'We offer same-day visits Monday to Friday when a technician is free. Same-day visits are available for services ' +
    'of up to 3 hours.',
  5,
);
const ctx = seedContext({ retrieved: [sameDay] });

describe('a willingness to pay is no price question', () => {
  it.each([
    'inlaws just told us theyre coming TONIGHT can i get a deep clean today?? ill pay whatever',
    "need a deep clean today, i'm happy to pay extra, is that possible?",
  ])('no price lead: %s', (text) => {
    expect(plan(ctx, text).content).not.toContain('$289');
  });

  it('a price asked still gets it', () => {
    expect(plan(ctx, 'how much do i pay for a deep clean today?').content).toContain('$289');
  });
});
