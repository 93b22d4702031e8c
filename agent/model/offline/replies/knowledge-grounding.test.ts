import { describe, expect, it } from 'vitest';
import type { PlanContext } from '../../../plan-context.js';
import { article as hit, makeContext } from '../testing.js';
import { answerFromKb } from './knowledge.js';
import { correctTypos } from './question-terms.js';

/*
 * Help-centre answers that carry the fact asked for. Synthetic articles in the order a retriever might
 * return them, a plausible neighbour first.
 */
type Hit = PlanContext['retrieved'][number];
const ask = (question: string, retrieved: Hit[]) => answerFromKb(question, makeContext({ retrieved }));

describe('answerFromKb: the article and passage with the fact', () => {
  it('answers "is it possible to…?" with what we do not do about the detail only one article names', () => {
    const ready = hit(
      'Getting ready for a repair or installation',
      'For installations, have the device on site and, if possible, still in its box. Decide in advance where ' +
        'you want it: the height of a TV, or which room a fan goes in.',
      4.9,
    );
    const prices = hit(
      'Installation prices',
      'You can use your own bracket, or we can bring a tilting bracket for $45. We do not mount on brick, stone ' +
        'or over fireplaces.',
      4.9,
    );
    const warranty = hit(
      'One-year installation warranty',
      'TV mounting and thermostat installation come with a 1-year installation warranty from the date of the visit.',
      3.7,
    );
    const a = ask('is it possible to get the tv put up above our fireplace?', [ready, prices, warranty]);
    expect(a?.articleId).toBe(prices.id);
    expect(a?.text).toContain('over fireplaces');
  });

  it('reads a one-word translation the articles never use ("upfront" → deposit) as the question’s subject', () => {
    const prices = hit(
      'Cleaning prices',
      'Move-In/Move-Out Cleaning is $349 in an empty home. Because it is over $300, a deposit is taken.',
      4.8,
    );
    const deposits = hit(
      'Deposits',
      'Most bookings need no deposit. For a $349 move-out cleaning, the deposit is $87.25.',
      4.6,
    );
    const a = ask('how much do you take upfront when I book the move out clean?', [prices, deposits]);
    expect(a?.articleId).toBe(deposits.id);
    expect(a?.text).toContain('$87.25');
  });

  it('answers a question about one day with the article about it, not the weekly hours', () => {
    const hours = hit(
      'Business hours',
      'Our team works Monday to Friday from 8:00 a.m. to 6:00 p.m. and Saturday from 9:00 a.m. to 2:00 p.m. ' +
        'We are closed on Sundays and on six public holidays each year. Holiday hours are different; see our ' +
        'holiday hours article for details.',
      4.4,
    );
    const holidays = hit(
      'Holiday hours',
      'We are closed on Independence Day, Thanksgiving Day and Christmas Day. The day after Thanksgiving and the ' +
        'day after Christmas are normal working days.',
      4.3,
    );
    const ahead = hit('How far ahead you can book', 'Our calendar is open for the next 14 days.', 3.5);
    const a = ask('are you open the friday right after thanksgiving?', [hours, holidays, ahead]);
    expect(a?.articleId).toBe(holidays.id);
    expect(a?.text).toContain('normal working days');
  });
});

describe('answerFromKb: what the reply adds to the quote', () => {
  it('does not repeat the catalogue price when the quote states it already', () => {
    const deposits = hit(
      'Deposits',
      'We take a 25% deposit for visits of $300 or more. For a $349 move-out cleaning, the deposit is $87.25.',
      4.6,
    );
    const a = ask('how much is the deposit for a move out cleaning?', [deposits]);
    expect(a?.text).not.toMatch(/Move-In\/Move-Out Cleaning is \$349 and takes about/);
  });
});

describe('correctTypos: slips, not other words', () => {
  it('reads a slip or a swap as the article’s word, but never one real word as another', () => {
    const vocabulary = new Set(['alone', 'warranty', 'cancel', 'refund']);
    expect([...correctTypos(new Set(['above']), vocabulary)]).toEqual(['above']);
    expect([...correctTypos(new Set(['warrenty']), vocabulary)]).toEqual(['warranty']);
    expect([...correctTypos(new Set(['cancle', 'refnud']), vocabulary)]).toEqual(['cancel', 'refund']);
  });
});

describe('answerFromKb: a fee taken away answers whether one is charged', () => {
  it('quotes "we waive the fee" for "do we still get charged?", not a list of amounts', () => {
    const charges = hit(
      'Questions about a charge',
      'The most common reasons a charge differs from the listed price are a $25 charge for each extra bedroom and ' +
        'late cancellation fees.',
      6.5,
    );
    const ill = hit(
      'Changing a visit because someone is ill',
      'If anyone in your home has the flu, let us know at least 2 hours before the start time and we will waive ' +
        'the late cancellation fee.',
      6.4,
    );
    const a = ask('if someone wakes up with the flu on the day do we still get charged for cancelling', [charges, ill]);
    expect(a?.articleId).toBe(ill.id);
  });
});

describe('answerFromKb: what the message tells is not what it asks', () => {
  it('reads "ill be at work" as I will, not as someone ill', () => {
    const ill = hit(
      'Illness and health precautions',
      'If anyone in your home is ill, we can still work in a separate area of the building.',
      5.4,
    );
    const access = hit(
      'Letting us in when you are not home',
      'Concierge desks and doormen can let your technician in if the building allows it.',
      4.2,
    );
    const a = ask('ill be at work during the clean. our building has a concierge, does that work', [ill, access]);
    expect(a?.articleId).toBe(access.id);
  });

  it('answers who may let the technician in, not the price of the service the message mentions', () => {
    const prices = hit(
      'Installation prices',
      'Smart Thermostat Installation is $189. We connect the new thermostat to Wi-Fi and test it.',
      4.8,
    );
    const home = hit(
      'Do you need to be home?',
      'You do not need to be home, but someone aged 18 or over must let the technician in and be there at the end.',
      5,
    );
    const a = ask('getting a smart thermostat put in. do i need to be home or can my 16 yr old let them in', [
      prices,
      home,
    ]);
    expect(a?.articleId).toBe(home.id);
    expect(a?.text).toContain('aged 18 or over');
  });
});
