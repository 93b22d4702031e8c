import { describe, expect, it } from 'vitest';
import type { PlanContext } from '../../../plan-context.js';
import { NOT_SERVED, SERVICE_AREA } from '../../../../schema/business/service-area.js';
import { splitSentences } from '../analysis/text.js';
import { article as hit, makeContext } from '../testing.js';
import { answerFromKb, answerFromServices, kbCaveat } from './knowledge.js';

/*
 * Which article and which passage a help-centre answer quotes. Synthetic articles, in the order a
 * retriever might return them: the tests put a plausible but wrong article first or second.
 */
type Hit = PlanContext['retrieved'][number];
const ask = (question: string, retrieved: Hit[]) => answerFromKb(question, makeContext({ retrieved }));

describe('answerFromKb: the passage that answers', () => {
  it('lets rare question words ("refund", "card") outweigh the question frame ("how long … take")', () => {
    const windows = hit(
      'Visit start times and arrival windows',
      'The latest start depends on how long the service takes. Your technician arrives within a 30-minute ' +
        'arrival window that begins at your start time.',
      4.6,
    );
    const refunds = hit(
      'Refunds',
      'Card and wallet refunds usually appear on your statement within 5 to 10 business days. Your email ' +
        'receipt is updated to show the refund.',
      4.9,
    );
    const deposits = hit('Deposits', 'We take a deposit when you book. We charge the balance to the same card.', 3.7);
    const a = ask('how long does a refund take to show up on my card?', [refunds, windows, deposits]);
    expect(a?.articleId).toBe(refunds.id);
    expect(a?.text).toContain('5 to 10 business days');
  });

  it('answers a question about a place with the article that names it', () => {
    const place = NOT_SERVED[0]!;
    const door = hit('Knowing who is coming to your home', 'We want you to know exactly who is at your door.', 2.1);
    const guarantee = hit(
      'Our workmanship guarantee',
      'If something we fixed stops working, we come back and put it right at no charge.',
      1.5,
    );
    const outside = hit(
      'If your address is outside our service area',
      `We do not go beyond the extended area, for example to ${place}.`,
      1.2,
    );
    const a = ask(`Can you come out to ${place}?`, [door, guarantee, outside]);
    expect(a?.articleId).toBe(outside.id);
    expect(a?.text).toContain(`${place} is outside our service area`);
  });

  it('says a named town of the service area is served, and quotes its surcharge for a price question', () => {
    const town = SERVICE_AREA.find((t) => t.travel_surcharge_cents > 0)!.name;
    const rules = hit(
      'Travel surcharge',
      `${town} is in our extended service area. The surcharge is charged once per visit. Like all our fees, ` +
        'it is not discounted by plans, and late cancellation fees are calculated on the service price only.',
      5.7,
    );
    const glance = hit(
      'Extra fees and surcharges at a glance',
      `Most visits cost exactly the listed service price. Travel surcharge: $35 per visit in ${town}.`,
      4.6,
    );
    const a = ask(`Do you service ${town}? Is it more expensive there?`, [rules, glance]);
    expect(a?.text).toMatch(new RegExp(`^Yes, ${town} is in our service area\\.`));
    expect(a?.text).toContain('$35');
  });

  it('reads "what time do you open" as a question about opening hours (typos and all)', () => {
    const ahead = hit(
      'How far ahead you can book',
      'Our calendar is open for the next 14 days. A new day opens every morning.',
      3.9,
    );
    const saturdays = hit(
      'Saturday visits',
      'We work Saturdays from 9:00 a.m. to 2:00 p.m. Longer services can start at 9:00 or 10:00 a.m.',
      3.6,
    );
    const a = ask('wat time do u open on saturdy', [ahead, saturdays]);
    expect(a?.articleId).toBe(saturdays.id);
    expect(a?.text).toContain('from 9:00 a.m. to 2:00 p.m.');
  });

  it('answers "what is the difference between A and B" from the article that names both services', () => {
    const guarantee = hit(
      'Cleaning satisfaction guarantee',
      'If something was not cleaned to our standard, tell us within 48 hours. The guarantee applies to all ' +
        'cleanings: standard, deep and window cleaning.',
      4.2,
    );
    const prices = hit(
      'Cleaning prices',
      'Standard Home Cleaning is $149 and takes about 3 hours. Deep Cleaning is $289 and takes about 4 hours. ' +
        'On top of a standard cleaning we do baseboards and the inside of the oven.',
      3.8,
    );
    const a = ask("what's the difference between a standard and a deep clean?", [guarantee, prices]);
    expect(a?.articleId).toBe(prices.id);
    expect(a?.text).toContain('baseboards');
  });

  it('answers "how long does X take" with the catalogue duration, typo or not', () => {
    const prices = hit(
      'Repair prices',
      'Faucet Repair is $145 for a dripping or leaking faucet. If the faucet is beyond repair, we quote a ' +
        'replacement first.',
      3.7,
    );
    for (const q of ['hw long does a faucet repair take', 'how long will a faucet repair take?']) {
      expect(ask(q, [prices])?.text).toContain('takes about 90 minutes');
    }
    expect(answerFromServices('hw long does a faucet repair take', makeContext())).toContain('90 minutes');
  });
});

describe('kbCaveat: a limit the help centre states about a detail of the request', () => {
  const install = hit(
    'Installation prices',
    'TV Wall Mounting is $159 for one TV up to 75 inches on a drywall wall. We do not mount on brick, stone or ' +
      'over fireplaces.',
    6.5,
  );
  const warranty = hit('Installation warranty', 'TV mounting comes with a 1-year installation warranty.', 5.4);

  it('quotes the limit when the request names the detail', () => {
    const note = kbCaveat('Can you mount my TV above the fireplace?', makeContext({ retrieved: [install, warranty] }));
    expect(note).toContain('We do not mount on brick, stone or over fireplaces.');
  });

  it('says nothing when what the article does not do is not what the request asks', () => {
    const supplies = hit(
      'Supplies we bring for a Standard Home Cleaning',
      'Standard Home Cleaning includes all supplies. We do not use your vacuum cleaner unless you ask us to.',
      4,
    );
    const q = 'book a standard clean on friday, please bring a vacuum';
    expect(kbCaveat(q, makeContext({ retrieved: [supplies] }))).toBeUndefined();
  });

  it('says nothing when the request only names the service, a day or a time', () => {
    for (const q of ['Can you mount my TV on Tuesday at 10?', 'book a tv mounting next week', 'mount my TV please']) {
      expect(kbCaveat(q, makeContext({ retrieved: [install, warranty] }))).toBeUndefined();
    }
  });
});

describe('splitSentences (the planner’s)', () => {
  it('never ends a sentence inside "9:00 a.m." or a web address', () => {
    expect(splitSentences('We open at 9:00 a.m. Saturday visits end at 2:00 p.m. See example.com. Thanks')).toEqual([
      'We open at 9:00 a.m.',
      'Saturday visits end at 2:00 p.m.',
      'See example.com.',
      'Thanks',
    ]);
    expect(splitSentences('Pay by card, e.g. Visa. Done')).toEqual(['Pay by card, e.g. Visa.', 'Done']);
  });
});
